import { Popconfirm, Switch, Tooltip } from '@arco-design/web-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A greyed control that says why: in a tooltip on hover, and to a screen reader in hidden text beside it
 * (a disabled control takes no focus). Without a reason the control shows as it is.
 */
export function DisabledReason({ reason, children }: { reason?: string; children: ReactNode }) {
  if (!reason) return <>{children}</>;
  return (
    <Tooltip content={reason}>
      <span className="disabled-reason">
        {children}
        <span className="sr-only">{reason}</span>
      </span>
    </Tooltip>
  );
}

/** The status switch: '0' normal is on; flipping it asks first (spec section 4). */
export function StatusSwitch({
  status,
  name,
  disabled,
  warning,
  onChange,
}: {
  status: string;
  name: string;
  disabled?: boolean;
  /** what else the change does, said in the confirmation (a department's sub-departments follow it) */
  warning?: string;
  onChange: (status: '0' | '1') => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const enabled = status === '0';
  return (
    <Popconfirm
      title={t(enabled ? 'crud.disableConfirm' : 'crud.enableConfirm', { name })}
      content={warning}
      disabled={disabled}
      onOk={() => onChange(enabled ? '1' : '0')}
    >
      <Switch
        checked={enabled}
        disabled={disabled}
        size="small"
        checkedText={t('status.0')}
        uncheckedText={t('status.1')}
        aria-label={name}
      />
    </Popconfirm>
  );
}
