import { Button, Card, Empty, Form, Grid, Input, InputNumber, Message, Select, Skeleton, Space, Typography } from '@arco-design/web-react';
import { type GroupSettings, groupFormSchema } from '@atrium/contracts/forms';
import { type CodeKind, codeOptions } from '@atrium/contracts/labels';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api/http';
import { useSchemaForm } from '../../crud/schema-form';
import { formatDateTime } from '../../locale/datetime';
import './forms.css';
import './messages';

const URL = '/api/form/group';
const key = ['form', 'group'] as const;

/** Spec group form: the tenant's video and audio parameters, read from and saved to the server. */
export function GroupFormPage() {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm();
  const client = useQueryClient();
  const label = (field: string) => t(`groupForm.${field}`);
  const { validate, recheck, showServerErrors } = useSchemaForm(form, groupFormSchema, {
    label,
    rules: { defaultEncodingRate: t('groupForm.rateOrder'), minEncodingRate: t('groupForm.minOrder') },
  });
  const query = useQuery({ queryKey: key, queryFn: () => http.get<GroupSettings>(URL) });
  const save = useMutation({
    mutationFn: (body: unknown) => http.put<GroupSettings>(URL, body, { silent: true }),
    onSuccess: (settings) => {
      client.setQueryData(key, settings);
      Message.success(t('groupForm.saved'));
    },
    onError: (error) => {
      if (!showServerErrors(error)) Message.error((error as Error).message);
    },
  });
  const { data } = query;
  useEffect(() => {
    if (data) form.setFieldsValue(data);
  }, [data, form]);

  if (query.isPending) {
    return (
      <Card bordered={false}>
        <Skeleton animation text={{ rows: 8 }} />
      </Card>
    );
  }
  if (query.isError || !data) {
    return (
      <Card bordered={false}>
        <Empty description={t('crud.loadFailed')} />
        <div className="center-actions">
          <Button onClick={() => void query.refetch()}>{t('crud.retry')}</Button>
        </div>
      </Card>
    );
  }

  const options = (values: readonly number[], text: (v: number) => string) => values.map((value) => ({ value, label: text(value) }));
  const codes = (kind: CodeKind) => <Select options={codeOptions(kind, i18n.language)} />;
  const item = (field: string, control: ReactNode, required = true) => (
    <Grid.Col xs={24} md={12} lg={8}>
      <Form.Item label={label(field)} field={field} required={required}>
        {control}
      </Form.Item>
    </Grid.Col>
  );
  const number = (min: number, max: number, suffix: string) => <InputNumber min={min} max={max} step={1} suffix={suffix} />;
  const channels = options([1, 2], (v) => t('groupForm.channels', { count: v }));
  const send = () => {
    const checked = validate();
    if (checked.ok) save.mutate(checked.data);
  };

  return (
    <Form form={form} layout="vertical" onValuesChange={(changed) => recheck(changed)}>
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Card bordered={false} title={t('groupForm.video')}>
          <Grid.Row gutter={24}>
            {item('videoMode', codes('matchMode'))}
            {item('acquisitionResolution', codes('resolution'))}
            {item('acquisitionFrameRate', number(1, 30, t('groupForm.fps')))}
            {item('encodingResolution', codes('resolution'))}
            {item('minEncodingRate', number(150, 1800, t('groupForm.kbps')))}
            {item('maxEncodingRate', number(150, 1800, t('groupForm.kbps')))}
            {item('defaultEncodingRate', number(150, 1800, t('groupForm.kbps')))}
            {item('encodingFrameRate', number(1, 30, t('groupForm.fps')))}
            {item('videoProfile', codes('videoProfile'))}
          </Grid.Row>
        </Card>
        <Card bordered={false} title={t('groupForm.audio')}>
          <Grid.Row gutter={24}>
            {item('audioMode', codes('matchMode'))}
            {item('acquisitionChannels', <Select options={channels} />)}
            {item('audioEncodingRate', number(150, 1800, t('groupForm.kbps')))}
            {item('audioChannels', <Select options={channels} />)}
            {item('audioProfile', codes('audioProfile'))}
          </Grid.Row>
        </Card>
        <Card bordered={false} title={t('groupForm.explanation')}>
          <Form.Item label={label('description')} field="description">
            <Input.TextArea maxLength={200} showWordLimit autoSize={{ minRows: 3, maxRows: 6 }} />
          </Form.Item>
        </Card>
        <Card bordered={false}>
          <div className="form-actions-bar">
            <Typography.Text type="secondary">
              {data.updateTime
                ? t('groupForm.lastSaved', { by: data.updateBy ?? '—', time: formatDateTime(data.updateTime) })
                : t('groupForm.neverSaved')}
            </Typography.Text>
            <Space>
              <Button onClick={() => form.setFieldsValue(data)}>{t('groupForm.reset')}</Button>
              <Button type="primary" loading={save.isPending} onClick={send}>
                {t('groupForm.save')}
              </Button>
            </Space>
          </div>
        </Card>
      </Space>
    </Form>
  );
}
