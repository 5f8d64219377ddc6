import type { Certification } from '@atrium/contracts/centre';
import type { TFunction } from 'i18next';
import { http } from '../../api/http';

/** The signed-in user's certification requests, shared by the info page and the settings tab. */
export const certificationKey = ['user', 'certification'] as const;
export const fetchCertifications = () => http.get<Certification[]>('/api/user/certification');
export const statusColor: Record<Certification['status'], string> = {
  auditing: 'orangered',
  passed: 'green',
  rejected: 'red',
  withdrawn: 'gray',
};

/** The certificate's columns, as the applicant's records and the review queue both show them. */
export const certificateColumns = (t: TFunction) => [
  { title: t('cert.legalPerson'), dataIndex: 'legalPerson' },
  { title: t('cert.certificateType'), dataIndex: 'certificateType', render: (v: string) => t(`cert.certificateType.${v}`) },
  { title: t('cert.certificateNumber'), dataIndex: 'certificateNumber' },
  { title: t('cert.enterpriseName'), dataIndex: 'enterpriseName' },
  { title: t('cert.organisationCode'), dataIndex: 'organisationCode' },
];
