import { registerMessages } from '../../../crud/messages';

/** What a member's QR code holds and shows: `M` and the member's id, six digits at least (M000123). */
export const memberCode = (id: number) => `M${String(id).padStart(6, '0')}`;

registerMessages({
  'zh-CN': { 'erp.member.qr': '会员码', 'erp.member.qrHint': '结账时出示此码，收银员扫码识别会员' },
  'en-US': { 'erp.member.qr': 'Member code', 'erp.member.qrHint': 'Show this code at checkout; the cashier scans it to find the member' },
});
