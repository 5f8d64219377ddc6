import { postResource } from '@atrium/contracts/system/post';
import { userResource } from '@atrium/contracts/system/user';
import { describe, expect, it } from 'vitest';
import { searchIssues, toParams } from './search-params';
import type { FieldDef } from './types';

const userSearch: FieldDef[] = [
  { field: 'accountId', label: 'system.user.accountId', match: 'prefix' },
  { field: 'name', label: 'system.user.name', match: 'prefix' },
  { field: 'status', label: 'crud.status', type: 'radio' },
  { field: 'deptId', label: 'system.user.dept', type: 'treeSelect' },
  { field: 'createTime', label: 'system.user.createTime', type: 'dateRange' },
];

describe("the search form's query parameters", () => {
  it('drops empty values and keeps 0 and other values as they are', () => {
    expect(toParams({ accountId: '', name: null, status: '0', deptId: 7 }, userSearch)).toEqual({ status: '0', deptId: 7 });
    expect(toParams({ deptId: 0 }, userSearch)).toEqual({ deptId: 0 });
  });

  it('sends only the form fields, not whatever else the form holds', () => {
    expect(toParams({ name: 'Ann', pageNum: 3, sort: 'id:asc' }, userSearch)).toEqual({ name: 'Ann' });
  });

  it("turns a date range into From/To instants covering both whole days in the user's zone", () => {
    // the zone is Asia/Shanghai (vitest.setup.ts): the days start at 16:00 UTC the day before
    const params = toParams({ createTime: ['2026-11-01', '2026-11-23'] }, userSearch);
    expect(params).toEqual({ createTimeFrom: '2026-10-31T16:00:00.000Z', createTimeTo: '2026-11-23T15:59:59.999Z' });
    // the server reads the same instants, whatever its own zone
    const read = userResource.filters.parse(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])));
    expect(read.createTimeFrom?.getTime()).toBe(Date.UTC(2026, 9, 31, 16));
    expect(read.createTimeTo?.getTime()).toBe(Date.UTC(2026, 10, 23, 16) - 1);
  });
});

describe("the search form's check against the contract's filters", () => {
  it('finds nothing in values the server takes', () => {
    const params = toParams({ name: 'Ann', status: '1', deptId: 3, createTime: ['2026-11-01', '2026-11-23'] }, userSearch);
    expect(searchIssues(params, userSearch, userResource.filters)).toEqual([]);
  });

  it('names the field of a value the server would refuse', () => {
    const issues = searchIssues(toParams({ name: 'x'.repeat(21), deptId: 3 }, userSearch), userSearch, userResource.filters);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: ['name'], code: 'too_big', maximum: 20 });
  });

  it("checks values as query-string text, like the server: a number field's text is coerced", () => {
    expect(searchIssues({ deptId: '12' }, userSearch, userResource.filters)).toEqual([]);
    expect(searchIssues({ deptId: -1 }, userSearch, userResource.filters)).toMatchObject([{ path: ['deptId'] }]);
  });

  it("moves a date range's From/To issues to the range field", () => {
    const issues = searchIssues({ createTimeFrom: '0001-01-01T00:00:00' }, userSearch, userResource.filters);
    expect(issues).toMatchObject([{ path: ['createTime'], code: 'custom' }]);
  });

  it('leaves out issues of keys no field sets (the user could not correct them), and checks nothing without a schema', () => {
    const onlyName: FieldDef[] = [{ field: 'name', label: 'system.post.name' }];
    expect(searchIssues({ name: 'ok', code: 'x'.repeat(65) }, onlyName, postResource.filters)).toEqual([]);
    expect(searchIssues({ name: 'x'.repeat(500) }, onlyName, undefined)).toEqual([]);
  });
});
