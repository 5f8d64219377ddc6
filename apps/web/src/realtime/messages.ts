import { registerMessages } from '../locale/registry';

registerMessages({
  'zh-CN': {
    'realtime.new.message': '新消息',
    'realtime.new.notice': '新通知',
    'realtime.new.todo': '新待办',
  },
  'en-US': {
    'realtime.new.message': 'New message',
    'realtime.new.notice': 'New notice',
    'realtime.new.todo': 'New to-do',
  },
});
