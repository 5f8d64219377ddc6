import { erpEn, erpZh } from '@atrium/contracts/erp/messages';
import { registerMessages } from '../../crud/messages';

// one copy of the ERP strings, in the contracts: the server writes Excel headers and values with it
registerMessages({ 'zh-CN': erpZh, 'en-US': erpEn });
