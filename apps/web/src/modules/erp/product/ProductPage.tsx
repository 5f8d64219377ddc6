import { Button } from '@arco-design/web-react';
import { IconEye } from '@arco-design/web-react/icon';
import type { Product } from '@atrium/contracts/erp/product';
import { productEntity } from '@atrium/contracts/erp/product';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ExportButton } from '../../../crud/ExportButton';
import { ResourcePage } from '../../../crud/ResourcePage';
import type { FieldDef } from '../../../crud/types';
import '../messages';
import { columnsOf, formOf, searchOf } from '../../../crud/fields';
import { SkusEditor, SpecsEditor } from './SkuEditor';

const fields = productEntity.fields ?? [];
// the manifest's fields plus the spec and SKU editors, the one place products differ
const form: FieldDef[] = [
  ...formOf(fields),
  { field: 'specs', label: 'erp.product.specs', type: 'custom', wide: true, render: (p) => <SpecsEditor {...p} /> },
  { field: 'skus', label: 'erp.product.skus', type: 'custom', wide: true, render: (p) => <SkusEditor {...p} /> },
];

export function ProductPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const resource = productEntity.resource;
  return (
    <ResourcePage<Product>
      resource={resource}
      columns={columnsOf<Product>(fields, t, true)}
      search={searchOf(fields)}
      form={form}
      createDefaults={{ status: '0', specs: [], skus: [{ specValues: [] }] }}
      toForm={(p) => ({ ...p, skus: p.skus.map(({ productId: _p, ...s }) => s) })}
      toolbar={(params) => <ExportButton resource={resource} params={params} />}
      rowActions={(item) => (
        <Button type="text" size="mini" icon={<IconEye />} onClick={() => navigate(`/erp/products/detail/${item.id}`)}>
          {t('crud.detail')}
        </Button>
      )}
    />
  );
}
