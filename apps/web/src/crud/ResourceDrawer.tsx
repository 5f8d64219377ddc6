import { Button, Drawer, Form, Grid, Message, Space } from '@arco-design/web-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldInput } from './FieldInput';
import type { WebResource } from './resource-api';
import type { FieldDef } from './types';
import { useResourceMutations } from './useResource';
import { type FieldErrors, issuesToErrors, serverErrors } from './validation';

type Props = {
  resource: WebResource;
  fields: FieldDef[];
  /** the row being edited (its form values), or null to create; undefined keeps the drawer closed */
  editing: { id?: number; values: Record<string, unknown> } | undefined;
  onClose: () => void;
};

// empty inputs mean "not given": the contract's defaults and nullable fields take over
const clean = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '' && v !== null && v !== undefined));

/**
 * Create/edit drawer: validates with the very zod schema the server uses, shows its issues in the
 * current language under each field, then shows the server's field errors (409 duplicates) the same way.
 */
export function ResourceDrawer({ resource, fields, editing, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const { save } = useResourceMutations(resource);
  const creating = editing?.id === undefined;
  const label = (field: string) => t(fields.find((f) => f.field === field)?.label ?? field);

  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    form.setFieldsValue(editing.values);
  }, [editing, form]);

  const showErrors = (errors: FieldErrors) =>
    form.setFields(Object.fromEntries(Object.entries(errors).map(([field, message]) => [field, { error: { message } }])));

  const submit = async () => {
    const shown = fields.filter((f) => !(f.createOnly && !creating) && (f.visible?.(form.getFieldsValue()) ?? true));
    const values = clean(form.getFieldsValue(shown.map((f) => f.field)));
    const parsed = (creating ? resource.create : resource.update).safeParse(values);
    if (!parsed.success) {
      showErrors(issuesToErrors(parsed.error.issues, label, t, values));
      return;
    }
    try {
      await save.mutateAsync({ id: editing?.id, body: parsed.data });
      Message.success(t('crud.saved'));
      onClose();
    } catch (error) {
      const errors = serverErrors(error, label, t);
      if (errors) showErrors(errors);
      else Message.error((error as Error).message);
    }
  };

  return (
    <Drawer
      width={560}
      visible={editing !== undefined}
      title={t(creating ? 'crud.create' : 'crud.edit')}
      onCancel={onClose}
      unmountOnExit
      footer={
        <Space>
          <Button onClick={onClose}>{t('crud.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={submit} data-testid="crud-save">
            {t('crud.save')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical">
        <Form.Item shouldUpdate noStyle>
          {(values: Record<string, unknown>) => (
            <Grid.Row gutter={16}>
              {fields
                .filter((f) => !(f.createOnly && !creating) && (f.visible?.(values) ?? true))
                .map((def) => (
                  <Grid.Col key={def.field} span={def.wide || def.type === 'textarea' || def.type === 'custom' ? 24 : 12}>
                    <Form.Item label={t(def.label)} field={def.field}>
                      <FieldInput def={def} />
                    </Form.Item>
                  </Grid.Col>
                ))}
            </Grid.Row>
          )}
        </Form.Item>
      </Form>
    </Drawer>
  );
}
