import { DatePicker, Input, InputNumber, Radio, Select, Switch, TreeSelect } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import type { FieldDef } from './types';

type Props = { def: FieldDef; value?: unknown; onChange?: (value: unknown) => void; search?: boolean };

/** The input a field type asks for; a custom field renders itself. Labels and options are translated. */
export function FieldInput({ def, value, onChange = () => {}, search }: Props) {
  const { t } = useTranslation();
  const placeholder = search && def.match === 'prefix' ? t('crud.startsWith', { label: t(def.label) }) : t(def.placeholder ?? def.label);
  const options = def.options?.map((o) => ({ label: t(o.label), value: o.value }));
  switch (def.type ?? 'text') {
    case 'custom':
      return <>{def.render?.({ value, onChange, placeholder })}</>;
    case 'textarea':
      return <Input.TextArea value={value as string} onChange={onChange} placeholder={placeholder} autoSize={{ minRows: 2, maxRows: 6 }} />;
    case 'password':
      return <Input.Password value={value as string} onChange={onChange} placeholder={placeholder} autoComplete="new-password" />;
    case 'number':
      return <InputNumber value={value as number} onChange={onChange} placeholder={placeholder} style={{ width: '100%' }} />;
    case 'select':
      return <Select value={value as string} onChange={onChange} placeholder={placeholder} options={options} allowClear />;
    case 'multiSelect':
      return (
        <Select
          mode="multiple"
          value={(value as number[]) ?? []}
          onChange={onChange}
          placeholder={placeholder}
          options={options}
          allowClear
        />
      );
    case 'treeSelect':
      return (
        <TreeSelect
          value={value === undefined || value === null ? undefined : String(value)}
          onChange={(v) => onChange(v === undefined || v === null || v === '' ? null : Number(v))}
          treeData={def.treeData}
          placeholder={placeholder}
          allowClear
          showSearch
          filterTreeNode={(input, node) =>
            String((node.props as { title?: unknown }).title ?? '')
              .toLowerCase()
              .includes(input.toLowerCase())
          }
        />
      );
    case 'switch':
      return <Switch checked={Boolean(value)} onChange={onChange} />;
    case 'radio':
      return search ? (
        <Select value={value as string} onChange={onChange} placeholder={placeholder} options={options} allowClear />
      ) : (
        <Radio.Group value={value} onChange={onChange} options={options} />
      );
    case 'dateRange':
      return (
        <DatePicker.RangePicker
          value={value as string[]}
          onChange={(v) => onChange(v)}
          placeholder={[t('crud.from'), t('crud.to')]}
          style={{ width: '100%' }}
        />
      );
    default:
      return <Input value={value as string} onChange={onChange} placeholder={placeholder} allowClear={search} />;
  }
}
