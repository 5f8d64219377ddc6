import { Button, Drawer, Form, Grid, Message, Modal, Space } from '@arco-design/web-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { holdUnsavedInput } from '../services/release';
import { FieldInput } from './FieldInput';
import type { WebResource } from './resource-api';
import type { FieldDef, TreeOption } from './types';
import { useResourceMutations } from './useResource';
import { type FieldErrors, issuesToErrors, serverErrors } from './validation';

type Props = {
  resource: WebResource;
  fields: FieldDef[];
  /** the entity's name for the title ("新建岗位"), already translated; plain "新建"/"编辑" without it */
  entity?: string;
  /** the row being edited (its form values), or null to create; undefined keeps the drawer closed */
  editing: { id?: number; values: Record<string, unknown> } | undefined;
  onClose: () => void;
  /** fills in what a new record needs before it is checked (a generated initial password) */
  prepareCreate?: (values: Record<string, unknown>) => Record<string, unknown>;
  /** after a create succeeded, with what was sent (show the generated password once) */
  onCreated?: (sent: Record<string, unknown>) => void;
};

// a record cannot move under itself or its descendants: those choices are disabled
const notUnder = (nodes: TreeOption[], id: unknown, inside = false): TreeOption[] =>
  nodes.map((node) => {
    const blocked = inside || (id !== undefined && node.key === String(id));
    return { ...node, disabled: node.disabled || blocked, children: node.children && notUnder(node.children, id, blocked) };
  });

// empty inputs mean "not given": the contract's defaults and nullable fields take over
const clean = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '' && v !== null && v !== undefined));

/**
 * Create/edit drawer: validates with the very zod schema the server uses, shows its issues in the
 * current language under each field, then shows the server's field errors (409 duplicates) the same way.
 */
export function ResourceDrawer({ resource, fields, entity, editing, onClose, prepareCreate, onCreated }: Props) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm();
  const { save } = useResourceMutations(resource);
  const creating = editing?.id === undefined;
  // a form field by its label; a column inside a list of rows (a SKU's price) by the resource's own key
  const label = (field: string) => {
    const own = fields.find((f) => f.field === field)?.label;
    if (own) return t(own);
    const key = `${resource.i18n}.${field}`;
    return i18n.exists(key) ? t(key) : field;
  };

  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    form.setFieldsValue(editing.values);
  }, [editing, form]);

  const showErrors = (errors: FieldErrors) =>
    form.setFields(Object.fromEntries(Object.entries(errors).map(([field, message]) => [field, { error: { message } }])));

  // a field the contract cannot do without is marked as required (the label's asterisk): its schema
  // refuses a missing value
  const schema = (creating ? resource.create : resource.update) as {
    shape?: Record<string, { safeParse(v: unknown): { success: boolean } }>;
  };
  const required = (field: string) => schema.shape?.[field]?.safeParse(undefined).success === false;

  const check = () => {
    const shown = fields.filter((f) => !(f.createOnly && !creating) && (f.visible?.(form.getFieldsValue()) ?? true));
    const entered = clean(form.getFieldsValue(shown.map((f) => f.field)));
    const values = creating && prepareCreate ? prepareCreate(entered) : entered;
    const parsed = (creating ? resource.create : resource.update).safeParse(values);
    return { parsed, values, errors: parsed.success ? {} : issuesToErrors(parsed.error.issues, label, t, values) };
  };

  // a field showing an error is checked again as soon as it changes: a corrected field loses its
  // message at once (also a server's 409 on it), one still wrong shows the current reason
  const recheck = (changed: Record<string, unknown>) => {
    const flagged = Object.keys(changed).filter((field) => form.getFieldError(field));
    if (!flagged.length) return;
    const { errors } = check();
    form.setFields(Object.fromEntries(flagged.map((field) => [field, { error: errors[field] ? { message: errors[field] } : undefined }])));
  };

  const submit = async () => {
    const { parsed, values, errors } = check();
    if (!parsed.success) {
      showErrors(errors);
      return;
    }
    try {
      await save.mutateAsync({ id: editing?.id, body: parsed.data });
      Message.success(t('crud.saved'));
      onClose();
      if (creating) onCreated?.(values);
    } catch (error) {
      const errors = serverErrors(
        error,
        label,
        t,
        fields.map((f) => f.field),
      );
      if (errors) showErrors(errors);
      else Message.error((error as Error).message);
    }
  };

  // closing (Escape, the mask, ×, Cancel) with changes made asks first: typing is not thrown away unasked
  const blank = (v: unknown) => (v === '' || v === undefined || v === null || (Array.isArray(v) && v.length === 0) ? null : v);
  const changed = () => {
    if (!editing) return false;
    const now = form.getFieldsValue();
    // the fields on screen: an edit has no create-only ones (the account number), a hidden one is not asked
    const shown = fields.filter((f) => !(f.createOnly && !creating) && (f.visible?.(now) ?? true));
    return shown.some((f) => JSON.stringify(blank(now[f.field])) !== JSON.stringify(blank(editing.values[f.field])));
  };
  // a reload offered after an upgrade asks first too (components/ReleaseNotice.tsx)
  const changedRef = useRef(changed);
  changedRef.current = changed;
  useEffect(() => (editing ? holdUnsavedInput(() => changedRef.current()) : undefined), [editing]);
  const leave = () => {
    if (!changed()) {
      onClose();
      return;
    }
    Modal.confirm({
      title: t('crud.discardTitle'),
      content: t('crud.discardContent'),
      okText: t('crud.discard'),
      cancelText: t('crud.keepEditing'),
      okButtonProps: { status: 'danger' },
      onOk: onClose,
    });
  };

  return (
    <Drawer
      width={560}
      visible={editing !== undefined}
      title={entity ? t(creating ? 'crud.createOf' : 'crud.editOf', { entity }) : t(creating ? 'crud.create' : 'crud.edit')}
      onCancel={leave}
      unmountOnExit
      footer={
        <Space>
          <Button onClick={leave}>{t('crud.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={submit} data-testid="crud-save">
            {t('crud.save')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" onValuesChange={recheck}>
        <Form.Item shouldUpdate noStyle>
          {(values: Record<string, unknown>) => (
            <Grid.Row gutter={16}>
              {fields
                .filter((f) => !(f.createOnly && !creating) && (f.visible?.(values) ?? true))
                .map((def) => (
                  // one column on a phone, two from 576 px
                  <Grid.Col key={def.field} xs={24} sm={def.wide || def.type === 'textarea' || def.type === 'custom' ? 24 : 12}>
                    <Form.Item label={t(def.label)} field={def.field} required={required(def.field)}>
                      <FieldInput def={def.notUnderSelf && def.treeData ? { ...def, treeData: notUnder(def.treeData, values.id) } : def} />
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
