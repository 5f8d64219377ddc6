import type { Language } from './errors';
import { codeLabel, codeLabels, labelledCodes } from './labels';

/** The release kinds of the label registry (labels.ts), under the names the release pages use. */
export const releaseLabels = {
  abilityStatus: codeLabels.abilityStatus,
  clientStatus: codeLabels.clientStatus,
  taskStatus: codeLabels.taskStatus,
  permissionLevel: codeLabels.permissionLevel,
};

export const releaseCodes = {
  abilityStatus: labelledCodes.abilityStatus,
  clientStatus: labelledCodes.clientStatus,
  taskStatus: labelledCodes.taskStatus,
  permissionLevel: labelledCodes.permissionLevel,
} as const;

/** `codeLabel` for a release kind. */
export function releaseLabel(kind: keyof typeof releaseLabels, code: string, lang: Language | string): string {
  return codeLabel(kind, code, lang);
}
