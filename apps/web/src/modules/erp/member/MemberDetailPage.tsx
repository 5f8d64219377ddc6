import { Button, Card, Modal, Space, Table, Tabs, Tag, Typography } from '@arco-design/web-react';
import { IconQrcode } from '@arco-design/web-react/icon';
import type { Member, MemberPoints } from '@atrium/contracts/erp/member';
import { memberResource } from '@atrium/contracts/erp/member';
import type { Sale } from '@atrium/contracts/erp/sale';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { http } from '../../../api';
import { QrCode } from '../../../components/qr/QrCode';
import { qrLogo, scanDefaults } from '../../../components/qr/qr';
import { ResourceDetail } from '../../../crud/ResourceDetail';
import { resourceKeys } from '../../../crud/resource-api';
import { useResourceItem } from '../../../crud/useResource';
import { formatDateTime } from '../../../locale/datetime';
import '../messages';
import { formatMoney } from '../../../locale/money';
import { memberCode } from './member-code';

type Paged<T> = { list: T[]; total: number };

/** Member detail: profile, the member's orders and points history. */
export function MemberDetailPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const [qrOpen, setQrOpen] = useState(false);
  // the orders and points of a member that exists: a wrong address shows the not-found page alone
  const member = useResourceItem<Member>(memberResource, id);
  const orders = useQuery({
    queryKey: [...resourceKeys({ domain: 'erp', name: 'sale' }).extra('member'), id],
    queryFn: () => http.get<Paged<Sale>>('/api/erp/sale', { params: { memberId: id, pageSize: 50 } }),
    enabled: Boolean(member.data),
  });
  const points = useQuery({
    queryKey: [...resourceKeys(memberResource).extra('points'), id],
    queryFn: () => http.get<Paged<MemberPoints>>(`/api/erp/member/${id}/points`, { params: { pageSize: 50 } }),
    enabled: Boolean(member.data),
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="medium">
      <ResourceDetail<Member>
        resource={memberResource}
        id={id}
        title={(m) => `${m.name} (${m.mobile})`}
        extra={(m) => (
          <>
            <Button icon={<IconQrcode />} onClick={() => setQrOpen(true)}>
              {t('erp.member.qr')}
            </Button>
            <Modal title={t('erp.member.qr')} visible={qrOpen} onCancel={() => setQrOpen(false)} footer={null} style={{ width: 480 }}>
              <div className="qr-panel">
                <QrCode
                  value={memberCode(m.id)}
                  {...scanDefaults}
                  logoSrc={qrLogo}
                  downloadName={memberCode(m.id)}
                  label={`${t('erp.member.qr')} ${memberCode(m.id)}`}
                />
                <Typography.Text copyable className="qr-panel-code">
                  {memberCode(m.id)}
                </Typography.Text>
                <Typography.Text type="secondary">{t('erp.member.qrHint')}</Typography.Text>
              </div>
            </Modal>
          </>
        )}
        fields={[
          { key: 'mobile', label: 'erp.member.mobile' },
          { key: 'sex', label: 'erp.member.sex', render: (m) => t(`erp.member.sex.${m.sex}`) },
          { key: 'birthday', label: 'erp.member.birthday' },
          { key: 'level', label: 'erp.member.level' },
          { key: 'points', label: 'erp.member.points' },
          { key: 'balance', label: 'erp.member.balance', render: (m) => formatMoney(m.balance) },
          { key: 'tags', label: 'erp.member.tags', render: (m) => m.tags.map((tag) => <Tag key={tag}>{tag}</Tag>) },
          { key: 'status', label: 'crud.status', render: (m) => t(`status.${m.status}`) },
        ]}
      />
      {member.data && (
        <Card>
          <Tabs defaultActiveTab="orders">
            <Tabs.TabPane key="orders" title={t('erp.member.orders')}>
              <Table
                rowKey="id"
                size="small"
                loading={orders.isLoading}
                data={orders.data?.list ?? []}
                pagination={false}
                columns={[
                  { title: t('erp.sale.orderNo'), dataIndex: 'orderNo' },
                  { title: t('erp.sale.status'), render: (_: unknown, s: Sale) => t(`erp.sale.status.${s.status}`) },
                  { title: t('erp.sale.totalAmount'), render: (_: unknown, s: Sale) => formatMoney(s.totalAmount) },
                  { title: t('crud.createTime'), render: (_: unknown, s: Sale) => formatDateTime(s.createTime) },
                ]}
              />
            </Tabs.TabPane>
            <Tabs.TabPane key="points" title={t('erp.member.pointsHistory')}>
              <Table
                rowKey="id"
                size="small"
                loading={points.isLoading}
                data={points.data?.list ?? []}
                pagination={false}
                columns={[
                  { title: t('erp.ledger.time'), render: (_: unknown, p: MemberPoints) => formatDateTime(p.createTime) },
                  { title: t('erp.ledger.delta'), dataIndex: 'delta' },
                  { title: t('erp.ledger.balance'), dataIndex: 'balance' },
                  { title: t('erp.member.reason'), render: (_: unknown, p: MemberPoints) => t(`erp.member.reason.${p.reason}`) },
                  { title: t('erp.ledger.refNo'), dataIndex: 'refNo' },
                ]}
              />
            </Tabs.TabPane>
          </Tabs>
        </Card>
      )}
    </Space>
  );
}
