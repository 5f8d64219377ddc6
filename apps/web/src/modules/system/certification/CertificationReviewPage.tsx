import { Button, Card, Form, Input, Message, Modal, Popconfirm, Radio, Space, Table, Tag } from '@arco-design/web-react';
import { type CertificationRequest, type CertificationReview, certificationStatuses } from '@atrium/contracts/centre';
import type { Page } from '@atrium/contracts/envelope';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, http } from '../../../api/http';
import { formatDateTime } from '../../../locale/datetime';
import { certificateColumns, statusColor } from '../../user/certification';
import '../../user/messages';

const PAGE_SIZE = 20;

/**
 * Certification review (platform administrator): the requests of the tenant signed in to, newest first;
 * approve one, or reject it with the reason its applicant reads. Only a request under review moves.
 */
export function CertificationReviewPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [status, setStatus] = useState<CertificationRequest['status'] | ''>('auditing');
  const [pageNum, setPageNum] = useState(1);
  const [rejecting, setRejecting] = useState<CertificationRequest | null>(null);
  const [form] = Form.useForm<{ reason: string }>();
  const key = ['system', 'certification', status, pageNum] as const;
  const query = useQuery({
    queryKey: key,
    queryFn: () =>
      http.get<Page<CertificationRequest>>('/api/system/certification', {
        params: { status: status || undefined, pageNum, pageSize: PAGE_SIZE },
      }),
  });
  const review = useMutation({
    mutationFn: ({ id, body }: { id: number; body: CertificationReview }) =>
      http.put<CertificationRequest>(`/api/system/certification/${id}/review`, body, { silent: true }),
    onSuccess: (row) => {
      Message.success(t(`cert.review.done.${row.status}`));
      setRejecting(null);
      void client.invalidateQueries({ queryKey: ['system', 'certification'] });
    },
    onError: (error) => {
      // the server's word on the reason goes under the field; anything else (reviewed meanwhile) as a toast
      const fields =
        (error instanceof ApiError ? (error.data as { fields?: { field: string; message: string }[] } | undefined)?.fields : undefined) ??
        [];
      const reason = fields.find((f) => f.field === 'reason');
      if (reason) form.setFields({ reason: { error: { message: reason.message } } });
      else Message.error(error.message);
      void client.invalidateQueries({ queryKey: ['system', 'certification'] });
    },
  });
  const reject = async () => {
    if (!rejecting) return;
    const { reason } = await form.validate();
    review.mutate({ id: rejecting.id, body: { result: 'rejected', reason } });
  };

  return (
    <Card bordered={false} title={t('menu.system.certification')} data-testid="cert-review">
      <Radio.Group
        type="button"
        value={status}
        onChange={(value: CertificationRequest['status'] | '') => {
          setStatus(value);
          setPageNum(1);
        }}
        style={{ marginBottom: 16 }}
        aria-label={t('cert.status')}
      >
        <Radio value="">{t('cert.review.all')}</Radio>
        {certificationStatuses.map((s) => (
          <Radio key={s} value={s}>
            {t(`cert.status.${s}`)}
          </Radio>
        ))}
      </Radio.Group>
      <Table<CertificationRequest>
        rowKey="id"
        loading={query.isFetching}
        data={query.data?.list ?? []}
        scroll={{ x: true }}
        pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: query.data?.total ?? 0, onChange: setPageNum }}
        columns={[
          { title: t('cert.review.applicant'), dataIndex: 'account', render: (v: string, row) => `${row.applicant} (${v})` },
          { title: t('cert.accountType'), dataIndex: 'accountType', render: (v: string) => t(`cert.accountType.${v}`) },
          ...certificateColumns(t),
          { title: t('cert.time'), dataIndex: 'createTime', render: (v: string) => formatDateTime(v) },
          {
            title: t('cert.status'),
            dataIndex: 'status',
            render: (v: CertificationRequest['status']) => <Tag color={statusColor[v]}>{t(`cert.status.${v}`)}</Tag>,
          },
          { title: t('cert.reviewReason'), dataIndex: 'reviewReason' },
          {
            title: '',
            dataIndex: 'id',
            align: 'right',
            render: (id: number, row) =>
              row.status === 'auditing' ? (
                <Space size={4}>
                  <Popconfirm title={t('cert.review.approveConfirm')} onOk={() => review.mutate({ id, body: { result: 'passed' } })}>
                    <Button size="mini" type="text" status="success" data-testid={`cert-approve-${id}`}>
                      {t('cert.review.approve')}
                    </Button>
                  </Popconfirm>
                  <Button
                    size="mini"
                    type="text"
                    status="danger"
                    data-testid={`cert-reject-${id}`}
                    onClick={() => {
                      form.resetFields();
                      setRejecting(row);
                    }}
                  >
                    {t('cert.review.reject')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <Modal
        title={t('cert.review.rejectTitle', { name: rejecting?.enterpriseName ?? '' })}
        visible={!!rejecting}
        onOk={reject}
        onCancel={() => setRejecting(null)}
        confirmLoading={review.isPending}
        okText={t('cert.review.reject')}
        okButtonProps={{ status: 'danger' }}
        unmountOnExit
      >
        <Form form={form} layout="vertical" onSubmit={reject}>
          <Form.Item
            label={t('cert.reviewReason')}
            field="reason"
            rules={[
              { required: true, validator: (v: string | undefined, cb) => cb(v?.trim() ? undefined : t('cert.review.reasonRequired')) },
            ]}
          >
            <Input.TextArea maxLength={200} showWordLimit autoFocus data-testid="cert-reject-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
