/**
 * The strings of the system entities on the manifest machinery, in both languages, written once: the web
 * app registers them with its locale registry, the server's Excel export writes headers with them.
 */
export const systemZh: Record<string, string> = {
  'system.post.entity': '岗位',
  'system.post.code': '岗位编码',
  'system.post.name': '岗位名称',
};

export const systemEn: Record<keyof typeof systemZh, string> = {
  'system.post.entity': 'post',
  'system.post.code': 'Post code',
  'system.post.name': 'Post name',
};
