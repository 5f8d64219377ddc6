import { Button } from '@arco-design/web-react';
import { IconEye } from '@arco-design/web-react/icon';
import type { EntityManifest } from '@atrium/contracts/entity';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ExportButton } from './ExportButton';
import { columnsOf, formOf, searchOf } from './fields';
import { ResourcePage } from './ResourcePage';
import type { Row } from './types';

/**
 * A whole list page from an entity manifest: columns, search form and drawer form come from the
 * contract's field metadata, so a simple entity needs no page file. A detail route adds a link.
 */
export function EntityPage<Item extends Row>({
  manifest,
  rowActions,
  readOnly,
}: {
  manifest: EntityManifest;
  rowActions?: (item: Item) => ReactNode;
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fields = manifest.fields ?? [];
  const resource = manifest.resource;
  const detail = manifest.detail;
  return (
    <ResourcePage<Item>
      resource={resource}
      columns={columnsOf<Item>(fields, t, resource.has('status'))}
      search={searchOf(fields)}
      form={readOnly ? undefined : formOf(fields)}
      createDefaults={manifest.createDefaults}
      toolbar={resource.has('export') ? (params) => <ExportButton resource={resource} params={params} /> : undefined}
      // no own actions, no detail page: a reader without edit or delete gets no empty 操作 column
      rowActions={
        detail || rowActions
          ? (item) => (
              <>
                {detail && (
                  <Button type="text" size="mini" icon={<IconEye />} onClick={() => navigate(detail.path.replace(':id', String(item.id)))}>
                    {t('crud.detail')}
                  </Button>
                )}
                {rowActions?.(item)}
              </>
            )
          : undefined
      }
    />
  );
}

/** The page of a manifest, for the page map. */
export const entityPage = (manifest: EntityManifest) => () => <EntityPage manifest={manifest} />;
