import {
  Button,
  Card,
  DatePicker,
  Descriptions,
  Form,
  Input,
  InputTag,
  Message,
  Result,
  Select,
  Space,
  Steps,
  Switch,
  Table,
  Tag,
} from '@arco-design/web-react';
import { channelTypes, countWords, type StepRecord, stepFormInputSchema } from '@atrium/contracts/forms';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api/http';
import { useSchemaForm } from '../../crud/schema-form';
import { formatDateTime } from '../../locale/datetime';
import './messages';

type Paged<T> = { list: T[]; total: number };

const URL = '/api/form/step';
const recentKey = ['form', 'step', 'recent'] as const;
// which fields each step owns: "next" checks only these
const stepFields = [
  ['activityName', 'channelType', 'promotionTime', 'promotionLink'],
  ['advertisingSource', 'advertisingMedia', 'keyword', 'pushNotify', 'advertisingContent'],
];

/** Spec step form: base info → channel info → finish, saved on the server as the tenant's record. */
export function StepFormPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [current, setCurrent] = useState(0);
  const [saved, setSaved] = useState<StepRecord | null>(null);
  const [content, setContent] = useState('');
  const client = useQueryClient();
  const label = (field: string) => t(`stepForm.${field}`);
  const { validate, recheck, showServerErrors } = useSchemaForm(form, stepFormInputSchema, {
    label,
    rules: { advertisingContent: t('stepForm.tooManyWords') },
  });
  const recent = useQuery({ queryKey: recentKey, queryFn: () => http.get<Paged<StepRecord>>(URL, { params: { pageSize: 5 } }) });
  const submit = useMutation({
    mutationFn: (body: unknown) => http.post<StepRecord>(URL, body, { silent: true }),
    onSuccess: (record) => {
      setSaved(record);
      setCurrent(2);
      void client.invalidateQueries({ queryKey: recentKey });
    },
    onError: (error) => {
      if (!showServerErrors(error)) Message.error((error as Error).message);
      // go back to the step holding the first field the server named
      const named = stepFields.findIndex((fields) => fields.some((f) => form.getFieldError(f)));
      if (named >= 0) setCurrent(named);
    },
  });

  const values = () => {
    const v = form.getFieldsValue() as Record<string, unknown>;
    const time = v.promotionTime as string | undefined;
    return { ...v, pushNotify: Boolean(v.pushNotify), promotionTime: time ? new Date(time).toISOString() : undefined };
  };
  const next = () => {
    if (validate(stepFields[current], values()).ok) setCurrent(current + 1);
  };
  const send = () => {
    const checked = validate(undefined, values());
    if (!checked.ok) {
      const first = stepFields.findIndex((fields) => fields.some((f) => f in checked.errors));
      if (first >= 0) setCurrent(first);
      return;
    }
    submit.mutate(checked.data);
  };
  const again = () => {
    form.resetFields();
    setContent('');
    setSaved(null);
    setCurrent(0);
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card bordered={false} title={t('menu.form.step')}>
        <Steps current={current + 1} style={{ maxWidth: 780, margin: '0 auto 32px' }} lineless>
          <Steps.Step title={t('stepForm.step.base')} description={t('stepForm.step.base.desc')} />
          <Steps.Step title={t('stepForm.step.channel')} description={t('stepForm.step.channel.desc')} />
          <Steps.Step title={t('stepForm.step.finish')} description={t('stepForm.step.finish.desc')} />
        </Steps>
        <Form
          form={form}
          layout="horizontal"
          labelCol={{ span: 7 }}
          wrapperCol={{ span: 12 }}
          initialValues={{ channelType: 'web', pushNotify: true, keyword: [] }}
          onValuesChange={(changed) => {
            if ('advertisingContent' in changed) setContent(String(changed.advertisingContent ?? ''));
            recheck(changed);
          }}
          style={{ display: current === 2 ? 'none' : undefined, maxWidth: 900, margin: '0 auto' }}
        >
          <div style={{ display: current === 0 ? undefined : 'none' }}>
            <Form.Item label={label('activityName')} field="activityName" required>
              <Input placeholder={t('stepForm.activityName.placeholder')} maxLength={20} showWordLimit />
            </Form.Item>
            <Form.Item label={label('channelType')} field="channelType" required>
              <Select options={channelTypes.map((value) => ({ value, label: t(`stepForm.channelType.${value}`) }))} />
            </Form.Item>
            <Form.Item label={label('promotionTime')} field="promotionTime" required>
              <DatePicker showTime style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label={label('promotionLink')} field="promotionLink" required>
              <Input placeholder={t('stepForm.promotionLink.placeholder')} />
            </Form.Item>
            <Form.Item wrapperCol={{ offset: 7, span: 12 }}>
              <Button type="primary" onClick={next}>
                {t('stepForm.next')}
              </Button>
            </Form.Item>
          </div>
          <div style={{ display: current === 1 ? undefined : 'none' }}>
            <Form.Item label={label('advertisingSource')} field="advertisingSource" required>
              <Input maxLength={50} />
            </Form.Item>
            <Form.Item label={label('advertisingMedia')} field="advertisingMedia" required>
              <Input maxLength={50} />
            </Form.Item>
            <Form.Item label={label('keyword')} field="keyword" required>
              <InputTag allowClear saveOnBlur placeholder={t('stepForm.keyword.placeholder')} />
            </Form.Item>
            <Form.Item label={label('pushNotify')} field="pushNotify" triggerPropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item
              label={label('advertisingContent')}
              field="advertisingContent"
              required
              extra={t('stepForm.words', { count: countWords(content) })}
            >
              <Input.TextArea placeholder={t('stepForm.advertisingContent.placeholder')} autoSize={{ minRows: 4, maxRows: 10 }} />
            </Form.Item>
            <Form.Item wrapperCol={{ offset: 7, span: 12 }}>
              <Space>
                <Button onClick={() => setCurrent(0)}>{t('stepForm.prev')}</Button>
                <Button type="primary" loading={submit.isPending} onClick={send}>
                  {t('stepForm.submit')}
                </Button>
              </Space>
            </Form.Item>
          </div>
        </Form>
        {current === 2 && saved && (
          <Result
            status="success"
            title={t('stepForm.success')}
            subTitle={t('stepForm.successDesc', { id: saved.id })}
            extra={
              <Button type="primary" onClick={again}>
                {t('stepForm.again')}
              </Button>
            }
          >
            <Descriptions
              column={1}
              style={{ maxWidth: 640, margin: '0 auto' }}
              labelStyle={{ width: 160 }}
              data={[
                { label: label('activityName'), value: saved.activityName },
                { label: label('channelType'), value: t(`stepForm.channelType.${saved.channelType}`) },
                { label: label('promotionTime'), value: formatDateTime(saved.promotionTime) },
                { label: label('promotionLink'), value: saved.promotionLink },
                { label: label('advertisingSource'), value: saved.advertisingSource },
                { label: label('advertisingMedia'), value: saved.advertisingMedia },
                { label: label('keyword'), value: saved.keyword.map((k) => <Tag key={k}>{k}</Tag>) },
                { label: label('pushNotify'), value: t(saved.pushNotify ? 'crud.yes' : 'crud.no') },
                { label: label('advertisingContent'), value: saved.advertisingContent },
              ]}
            />
          </Result>
        )}
      </Card>
      <Card bordered={false} title={t('stepForm.recent')}>
        <Table
          rowKey="id"
          loading={recent.isPending}
          pagination={false}
          data={recent.data?.list ?? []}
          noDataElement={recent.isError ? t('crud.loadFailed') : undefined}
          scroll={{ x: 720 }}
          columns={[
            { title: label('activityName'), dataIndex: 'activityName' },
            { title: label('channelType'), dataIndex: 'channelType', render: (v: string) => t(`stepForm.channelType.${v}`) },
            { title: label('promotionTime'), dataIndex: 'promotionTime', render: (v: string) => formatDateTime(v) },
            { title: t('stepForm.createBy'), dataIndex: 'createBy' },
            { title: t('stepForm.createTime'), dataIndex: 'createTime', render: (v: string) => formatDateTime(v) },
          ]}
        />
      </Card>
    </Space>
  );
}
