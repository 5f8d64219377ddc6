import { Button, Form, Grid, Space } from '@arco-design/web-react';
import { IconRefresh, IconSearch } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { FieldInput } from './FieldInput';
import type { ListParams, WebResource } from './resource-api';
import { searchIssues, toParams } from './search-params';
import type { FieldDef } from './types';
import { issuesToErrors } from './validation';

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
    const issues = searchIssues(params, fields, schema);
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
