import { Button, Modal, Space, Upload } from '@arco-design/web-react';
import { IconUpload } from '@arco-design/web-react/icon';
import type { ImportResult } from '@atrium/contracts/system/user';
import { userResource } from '@atrium/contracts/system/user';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api';
import { useCan } from '../../../components/permission';
import { ExportButton } from '../../../crud/ExportButton';
import { type ListParams, resourceKeys } from '../../../crud/resource-api';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Export the filtered list to Excel; import a sheet (an export is its template) and show each rejected row. */
export function UserExcelButtons({ params }: { params: ListParams }) {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const importXlsx = async (file: File) => {
    let result: ImportResult;
    try {
      result = await http.post<ImportResult>('/api/system/user/import', new Blob([file], { type: XLSX }));
    } catch {
      return; // the client has said why
    }
    const { created, failed, errors } = result;
    client.invalidateQueries({ queryKey: resourceKeys(userResource).all });
    Modal.info({
      title: t('system.user.import.result', { created, failed }),
      content: (
        <ul style={{ maxHeight: 300, overflow: 'auto' }}>
          {errors.map((e) => (
            <li key={`${e.row}-${e.field}`}>
              {t('system.user.import.row', { row: e.row })} · {e.field}: {e.message}
            </li>
          ))}
        </ul>
      ),
    });
  };
  // one Space of their own: the upload trigger is a block and would sit lower beside a button
  return (
    <Space align="center">
      <ExportButton resource={userResource} params={params} label="system.user.export" />
      {can('system:user:import') && (
        <Upload
          accept=".xlsx"
          showUploadList={false}
          customRequest={({ file }) => {
            void importXlsx(file as File);
          }}
        >
          <Button icon={<IconUpload />}>{t('system.user.import')}</Button>
        </Upload>
      )}
    </Space>
  );
}
