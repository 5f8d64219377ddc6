import { Button, Form, Input, Message, Modal, Popconfirm, Skeleton, Space, Tag, Typography } from '@arco-design/web-react';
import { type CloudVendor, type VendorAccount, vendorAccountInputSchema } from '@atrium/contracts/mall/printer';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api';
import { useSchemaForm } from '../../crud/schema-form';
import { formatDateTime } from '../../locale/datetime';
import './messages';

const KEY = ['mall', 'vendorAccount'] as const;
const URL = '/api/mall/printer/vendor-account';

/**
 * The tenant's accounts at the cloud printer vendors, one form each. The key is write-only: the page
 * only learns whether one is set, and an empty key field keeps the stored one.
 */
export function VendorAccounts({ visible, onClose, canEdit }: { visible: boolean; onClose: () => void; canEdit: boolean }) {
  const { t } = useTranslation();
  const accounts = useQuery({ queryKey: KEY, queryFn: () => http.get<VendorAccount[]>(URL), enabled: visible });
  return (
    <Modal visible={visible} title={t('mall.vendor.title')} onCancel={onClose} footer={null} style={{ width: 720 }} unmountOnExit>
      <Typography.Paragraph type="secondary">{t('mall.vendor.intro')}</Typography.Paragraph>
      {accounts.isPending ? (
        <Skeleton animation text={{ rows: 6 }} />
      ) : (
        (accounts.data ?? []).map((account) => <VendorForm key={account.vendor} account={account} canEdit={canEdit} />)
      )}
    </Modal>
  );
}

function VendorForm({ account, canEdit }: { account: VendorAccount; canEdit: boolean }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const client = useQueryClient();
  const label = (field: string) => t(`mall.vendor.${field}.${account.vendor}`, { defaultValue: t(`mall.vendor.${field}`) });
  const { validate, recheck, showServerErrors } = useSchemaForm(form, vendorAccountInputSchema, { label });
  useEffect(() => form.setFieldsValue({ accountUser: account.accountUser ?? '', accountKey: '' }), [account, form]);
  const done = (message: string) => {
    Message.success(message);
    return client.invalidateQueries({ queryKey: KEY });
  };
  const save = useMutation({
    mutationFn: (body: unknown) => http.put<VendorAccount>(`${URL}/${account.vendor}`, body, { silent: true }),
    onSuccess: () => done(t('mall.vendor.saved')),
    onError: (error) => {
      if (!showServerErrors(error)) Message.error((error as Error).message);
    },
  });
  const remove = useMutation({
    mutationFn: (vendor: CloudVendor) => http.delete<VendorAccount>(`${URL}/${vendor}`),
    onSuccess: () => done(t('mall.vendor.removed')),
  });
  const send = () => {
    const values = form.getFieldsValue() as { accountUser?: string; accountKey?: string };
    const checked = validate(undefined, {
      accountUser: values.accountUser,
      ...(values.accountKey ? { accountKey: values.accountKey } : {}),
    });
    if (checked.ok) save.mutate(checked.data);
  };
  return (
    <section className="vendor-account" data-testid={`vendor-${account.vendor}`}>
      <Space className="vendor-account-head">
        <Typography.Text bold>{t(`mall.printer.vendor.${account.vendor}`)}</Typography.Text>
        {account.keySet ? <Tag color="green">{t('mall.vendor.set')}</Tag> : <Tag color="gray">{t('mall.vendor.unset')}</Tag>}
        {account.updateTime && (
          <Typography.Text type="secondary">
            {account.updateBy} · {formatDateTime(account.updateTime)}
          </Typography.Text>
        )}
      </Space>
      <Form form={form} layout="inline" disabled={!canEdit} onValuesChange={(changed) => recheck(changed)}>
        <Form.Item field="accountUser" label={label('accountUser')} required>
          <Input maxLength={100} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item field="accountKey" label={label('accountKey')} required={!account.keySet}>
          <Input.Password
            maxLength={500}
            style={{ width: 200 }}
            autoComplete="new-password"
            placeholder={account.keySet ? t('mall.vendor.keepKey') : ''}
          />
        </Form.Item>
        {canEdit && (
          <Form.Item>
            <Space>
              <Button type="primary" loading={save.isPending} onClick={send}>
                {t('mall.vendor.save')}
              </Button>
              {account.keySet && (
                <Popconfirm title={t('mall.vendor.removeConfirm')} onOk={() => remove.mutateAsync(account.vendor)}>
                  <Button status="danger">{t('mall.vendor.remove')}</Button>
                </Popconfirm>
              )}
            </Space>
          </Form.Item>
        )}
      </Form>
    </section>
  );
}
