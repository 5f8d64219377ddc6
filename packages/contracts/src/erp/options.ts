/** Option lists the generic page shows (labels are i18n keys). */
export const statusOptionsMeta = [
  { label: 'status.0', value: '0' },
  { label: 'status.1', value: '1' },
] as const;
