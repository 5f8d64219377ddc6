import { Alert, Button, Form, Input, Message, Select } from '@arco-design/web-react';
import { type Certification, certificateTypes, certificationAccountTypes, certificationInputSchema } from '@atrium/contracts/centre';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api/http';
import { useSchemaForm } from '../../../crud/schema-form';
import { certificationKey, fetchCertifications } from '../certification';
import '../messages';

const layout = { layout: 'horizontal', labelCol: { span: 5 }, wrapperCol: { span: 14 }, style: { maxWidth: 760 } } as const;

/** Spec §3 enterprise certification: a request the tenant reviews; one under review at a time. */
export function CertificationForm() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const client = useQueryClient();
  const label = (field: string) => t(`cert.${field}`);
  const { validate, recheck, showServerErrors } = useSchemaForm(form, certificationInputSchema, { label });
  const records = useQuery({ queryKey: certificationKey, queryFn: fetchCertifications });
  const pending = records.data?.some((r) => r.status === 'auditing');
  const submit = useMutation({
    mutationFn: (body: unknown) => http.post<Certification>('/api/user/certification', body, { silent: true }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: certificationKey });
      form.resetFields();
      Message.success(t('cert.submitted'));
    },
    onError: (error) => {
      if (!showServerErrors(error)) Message.error((error as Error).message);
    },
  });
  const send = () => {
    const checked = validate();
    if (checked.ok) submit.mutate(checked.data);
  };
  return (
    <>
      {pending ? (
        <Alert type="warning" content={t('cert.pending')} style={{ marginBottom: 16, maxWidth: 760 }} data-testid="cert-pending" />
      ) : null}
      <Form
        form={form}
        {...layout}
        initialValues={{ accountType: 'enterprise', certificateType: 'idCard' }}
        onValuesChange={(changed) => recheck(changed)}
        data-testid="cert-form"
      >
        <Form.Item label={label('accountType')} field="accountType" required>
          <Select options={certificationAccountTypes.map((v) => ({ label: t(`cert.accountType.${v}`), value: v }))} />
        </Form.Item>
        <Form.Item label={label('enterpriseName')} field="enterpriseName" required>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item label={label('organisationCode')} field="organisationCode" required>
          <Input maxLength={18} placeholder={t('cert.organisationCode.placeholder')} />
        </Form.Item>
        <Form.Item label={label('legalPerson')} field="legalPerson" required>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item label={label('certificateType')} field="certificateType" required>
          <Select options={certificateTypes.map((v) => ({ label: t(`cert.certificateType.${v}`), value: v }))} />
        </Form.Item>
        <Form.Item label={label('certificateNumber')} field="certificateNumber" required>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 5, span: 14 }}>
          <Button type="primary" loading={submit.isPending} disabled={pending} onClick={send} data-testid="cert-submit">
            {t('cert.submit')}
          </Button>
        </Form.Item>
      </Form>
    </>
  );
}
