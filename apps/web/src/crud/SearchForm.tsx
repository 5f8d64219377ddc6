import { Button, Form, Grid, Space } from '@arco-design/web-react';
import { IconRefresh, IconSearch } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { FieldInput } from './FieldInput';
import type { ListParams, WebResource } from './resource-api';
import type { FieldDef } from './types';
import { issuesToErrors } from './validation';

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

/**
 * The search form above every list: search and reset. With the list's filter `schema` (the contract's),
 * a value the server would refuse (a name longer than its column) is named under its field and not sent.
 */
export function SearchForm({
  fields,
  schema,
  onSearch,
}: {
  fields: FieldDef[];
  schema?: WebResource['filters'];
  onSearch: (params: ListParams) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  if (!fields.length) return null;
  const submit = (values: Record<string, unknown>) => {
    const params = toParams(values, fields);
    // checked as the server sees it: every value a query-string text
    const result = schema?.safeParse(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])));
    // a date range's From/To are its field's
    const fieldOf = (key: string) =>
      fields.find((d) => d.field === key || (d.type === 'dateRange' && (key === `${d.field}From` || key === `${d.field}To`)))?.field;
    const issues = (result?.success === false ? result.error.issues : []).flatMap((issue) => {
      const field = fieldOf(String(issue.path[0] ?? ''));
      return field ? [{ ...issue, path: [field, ...issue.path.slice(1)] }] : [];
    });
    const label = (field: string) => t(fields.find((d) => d.field === field)?.label ?? field);
    const errors = issuesToErrors(issues, label, t, values);
    form.setFields(Object.fromEntries(fields.map((d) => [d.field, { error: errors[d.field] ? { message: errors[d.field] } : undefined }])));
    if (Object.keys(errors).length === 0) onSearch(params);
  };
  return (
    <Form form={form} layout="horizontal" labelAlign="left" className="crud-search" onSubmit={submit}>
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
                form.setFields(Object.fromEntries(fields.map((d) => [d.field, { error: undefined }])));
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
