import { registerMessages } from '../../crud/messages';
import { erpEn, erpZh } from './messages';

registerMessages({ 'zh-CN': erpZh, 'en-US': erpEn });
