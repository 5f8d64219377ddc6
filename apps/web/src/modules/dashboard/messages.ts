import { registerMessages } from '../../locale/registry';

/** Strings of the workplace's figures, in both languages. */
const zh: Record<string, string> = {
  'workplace.kpi.todayAmount': '今日销售额',
  'workplace.kpi.todayOrders': '今日订单',
  'workplace.kpi.monthAmount': '本月销售额',
  'workplace.kpi.monthOrders': '本月 {{count}} 单',
  'workplace.kpi.members': '会员总数',
  'workplace.kpi.newMembers': '本月新增 {{count}}',
  'workplace.kpi.lowStock': '低库存 SKU',
  'workplace.kpi.lowStockHint': '库存 ≤ {{count}} 件',
  'workplace.kpi.approvals': '待我审批的发布',
  'workplace.trend': '近 30 天销售额',
  'workplace.peak': '单日最高',
  'workplace.popular': '热销商品（近 30 天）',
  'workplace.categoryShare': '分类销售占比（近 30 天）',
  'workplace.notices': '最新公告',
  'workplace.noNotices': '暂无公告',
  'workplace.recent': '最近访问',
  'workplace.noRecent': '打开过的页面会出现在这里',
  'workplace.noSales': '近 30 天暂无销售',
  'workplace.sold': '售出 {{count}} 件',
  'workplace.loadFailed': '工作台数据加载失败',
  'workplace.retry': '重试',
};

const en: Record<string, string> = {
  'workplace.kpi.todayAmount': "Today's sales",
  'workplace.kpi.todayOrders': "Today's orders",
  'workplace.kpi.monthAmount': 'Sales this month',
  'workplace.kpi.monthOrders': '{{count}} orders this month',
  'workplace.kpi.members': 'Members',
  'workplace.kpi.newMembers': '{{count}} new this month',
  'workplace.kpi.lowStock': 'Low-stock SKUs',
  'workplace.kpi.lowStockHint': 'stock ≤ {{count}}',
  'workplace.kpi.approvals': 'Releases awaiting my approval',
  'workplace.trend': 'Sales, last 30 days',
  'workplace.peak': 'Best day',
  'workplace.popular': 'Popular products (30 days)',
  'workplace.categoryShare': 'Sales by category (30 days)',
  'workplace.notices': 'Latest notices',
  'workplace.noNotices': 'No notices yet',
  'workplace.recent': 'Recently visited',
  'workplace.noRecent': 'Pages you open show up here',
  'workplace.noSales': 'No sales in the last 30 days',
  'workplace.sold': '{{count}} sold',
  'workplace.loadFailed': 'The workplace figures could not be loaded',
  'workplace.retry': 'Retry',
};

registerMessages({ 'zh-CN': zh, 'en-US': en });
