import { Button, Form, Grid, Space } from '@arco-design/web-react';
import { IconRefresh, IconSearch } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { FieldInput } from './FieldInput';
import type { ListParams } from './resource-api';
import type { FieldDef } from './types';

/** Date ranges become `<field>From`/`<field>To`; empty values are dropped. */
function toParams(values: Record<string, unknown>, fields: FieldDef[]): ListParams {
  const params: ListParams = {};
  for (const def of fields) {
    const value = values[def.field];
    if (value === undefined || value === null || value === '') continue;
    if (def.type === 'dateRange' && Array.isArray(value)) {
      params[`${def.field}From`] = `${value[0]}T00:00:00`;
      params[`${def.field}To`] = `${value[1]}T23:59:59`;
    } else {
      params[def.field] = value as string | number;
    }
  }
  return params;
}

/** The search form above every list: search and reset. */
export function SearchForm({ fields, onSearch }: { fields: FieldDef[]; onSearch: (params: ListParams) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  if (!fields.length) return null;
  return (
    <Form
      form={form}
      layout="horizontal"
      labelAlign="left"
      className="crud-search"
      onSubmit={(values) => onSearch(toParams(values, fields))}
    >
      <Grid.Row gutter={16}>
        {fields.map((def) => (
          <Grid.Col key={def.field} xs={24} sm={12} md={8} xl={6}>
            <Form.Item label={t(def.label)} field={def.field} labelCol={{ span: 8 }} wrapperCol={{ span: 16 }}>
              <FieldInput def={def} search />
            </Form.Item>
          </Grid.Col>
        ))}
        <Grid.Col xs={24} sm={12} md={8} xl={6}>
          <Space>
            <Button type="primary" htmlType="submit" icon={<IconSearch />}>
              {t('crud.search')}
            </Button>
            <Button
              icon={<IconRefresh />}
              onClick={() => {
                form.resetFields();
                onSearch({});
              }}
            >
              {t('crud.reset')}
            </Button>
          </Space>
        </Grid.Col>
      </Grid.Row>
    </Form>
  );
}
