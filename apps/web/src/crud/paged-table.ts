import type { TFunction } from 'i18next';

export type Paging = { pageNum: number; pageSize: number };

/**
 * The props a plain paged list's table takes from its query and its paging state: the rows, the
 * loading state, what an empty or failed list says, and page and page-size changes.
 * `<Table {...pagedTable(list, paging, setPaging, t)} columns={…} />`
 */
export function pagedTable<Row>(
  list: { data?: { list: Row[]; total: number }; isFetching: boolean; isError: boolean },
  paging: Paging,
  setPaging: (paging: Paging) => void,
  t: TFunction,
) {
  return {
    data: list.data?.list ?? [],
    loading: list.isFetching,
    noDataElement: t(list.isError ? 'crud.loadFailed' : 'crud.empty'),
    pagination: {
      current: paging.pageNum,
      pageSize: paging.pageSize,
      total: list.data?.total ?? 0,
      showTotal: true,
      sizeCanChange: true,
      onChange: (pageNum: number, pageSize: number) => setPaging({ pageNum, pageSize }),
    },
  };
}
