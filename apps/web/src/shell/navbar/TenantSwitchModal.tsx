import { Button, Input, List, Message, Modal, Pagination, Tag } from '@arco-design/web-react';
import type { TenantOption } from '@atrium/contracts/auth';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { authApi } from '../../api/auth';
import { setToken } from '../../api/storage';
import { formatDate } from '../../locale/datetime';
import { afterLoginPath } from '../../services/guard';
import { useSession } from '../../services/session';
import { reenter } from './reenter';

const PAGE_SIZE = 8;

export const tenantKeys = {
  all: ['tenants'] as const,
  list: (pageNum: number, keyword: string) => ['tenants', 'list', { pageNum, keyword }] as const,
};

function tenantState(tenant: TenantOption): 'disabled' | 'expired' | null {
  if (tenant.status !== '0') return 'disabled';
  if (tenant.expireTime && new Date(tenant.expireTime).getTime() < Date.now()) return 'expired';
  return null;
}

/** Lists the tenants the account may enter; switching swaps the token and reloads user info and menu. */
export function TenantSwitchModal({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const currentId = useSession((s) => s.userInfo?.tenantId);
  const [pageNum, setPageNum] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [switching, setSwitching] = useState<number | null>(null);
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: tenantKeys.list(pageNum, keyword),
    queryFn: () => authApi.tenants({ pageNum, pageSize: PAGE_SIZE, keyword: keyword || undefined }),
    enabled: visible,
    placeholderData: keepPreviousData,
  });

  const switchTo = async (tenant: TenantOption) => {
    setSwitching(tenant.id);
    try {
      const { token } = await authApi.switchTenant(tenant.id);
      setToken(token);
      // nothing fetched in the old tenant may show in the new one, nor its pages stay mounted
      await reenter(queryClient);
      onClose();
      Message.success(t('tenant.switched', { name: tenant.name }));
      navigate(afterLoginPath(''), { replace: true });
    } catch {
      // the HTTP client showed why
    } finally {
      setSwitching(null);
    }
  };

  const date = (value: string) => formatDate(value);

  return (
    <Modal title={t('tenant.title')} visible={visible} onCancel={onClose} footer={null} unmountOnExit>
      <Input.Search
        allowClear
        placeholder={t('tenant.search')}
        aria-label={t('tenant.search')}
        onSearch={(value) => {
          setKeyword(value.trim());
          setPageNum(1);
        }}
      />
      <List
        className="tenant-list"
        loading={query.isFetching}
        dataSource={query.data?.list ?? []}
        noDataElement={<div className="tenant-empty">{t('tenant.empty')}</div>}
        render={(tenant: TenantOption) => {
          const state = tenantState(tenant);
          const current = tenant.current || tenant.id === currentId;
          return (
            <List.Item
              key={tenant.id}
              actions={[
                current ? (
                  <Tag color="arcoblue" key="current">
                    {t('tenant.current')}
                  </Tag>
                ) : (
                  <Button
                    key="switch"
                    type="primary"
                    size="small"
                    disabled={state !== null}
                    loading={switching === tenant.id}
                    onClick={() => void switchTo(tenant)}
                    aria-label={`${t('tenant.switch')} ${tenant.name}`}
                  >
                    {t('tenant.switch')}
                  </Button>
                ),
              ]}
            >
              <List.Item.Meta
                title={tenant.name}
                description={
                  <>
                    {tenant.code}
                    {tenant.expireTime ? ` · ${t('tenant.expires', { date: date(tenant.expireTime) })}` : ''}
                    {state ? (
                      <Tag size="small" color="red" className="tenant-state">
                        {t(`tenant.${state}`)}
                      </Tag>
                    ) : null}
                  </>
                }
              />
            </List.Item>
          );
        }}
      />
      {(query.data?.total ?? 0) > PAGE_SIZE ? (
        <Pagination size="small" total={query.data?.total ?? 0} pageSize={PAGE_SIZE} current={pageNum} onChange={setPageNum} />
      ) : null}
    </Modal>
  );
}
