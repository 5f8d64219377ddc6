import { registerMessages } from '../../crud/messages';
import { mallEn, mallZh } from './messages';

registerMessages({ 'zh-CN': mallZh, 'en-US': mallEn });
