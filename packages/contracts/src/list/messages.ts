/**
 * The search table's strings in both languages, written once: the web app registers them with its
 * locale registry, the server's Excel export writes headers with them.
 */
export const listZh: Record<string, string> = {
  'list.set.entity': '集合',
  'list.set.number': '集合编号',
  'list.set.name': '集合名称',
  'list.set.contentType': '内容体裁',
  'list.set.contentType.imageText': '图文',
  'list.set.contentType.horizontalVideo': '横版短视频',
  'list.set.contentType.verticalVideo': '竖版短视频',
  'list.set.filterType': '筛选方式',
  'list.set.filterType.artificial': '人工筛选',
  'list.set.filterType.rules': '规则筛选',
  'list.set.count': '内容量',
  'list.set.status': '状态',
  'list.set.status.0': '已上线',
  'list.set.status.1': '已下线',
};

export const listEn: Record<keyof typeof listZh, string> = {
  'list.set.entity': 'set',
  'list.set.number': 'Set number',
  'list.set.name': 'Set name',
  'list.set.contentType': 'Content type',
  'list.set.contentType.imageText': 'Image and text',
  'list.set.contentType.horizontalVideo': 'Horizontal video',
  'list.set.contentType.verticalVideo': 'Vertical video',
  'list.set.filterType': 'Filter type',
  'list.set.filterType.artificial': 'Manual',
  'list.set.filterType.rules': 'By rules',
  'list.set.count': 'Items',
  'list.set.status': 'Status',
  'list.set.status.0': 'Online',
  'list.set.status.1': 'Offline',
};
