import type { Certification } from '@atrium/contracts/centre';
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
