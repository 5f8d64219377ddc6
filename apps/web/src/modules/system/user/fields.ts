import type { Option } from '../../../crud/types';

export const sexOptions: Option[] = ['0', '1', '2'].map((v) => ({ label: `system.user.sex.${v}`, value: v }));
export const userTypeOptions: Option[] = ['00', '01', '02'].map((v) => ({ label: `system.user.userType.${v}`, value: v }));
