import { listEn, listZh } from '@atrium/contracts/list/messages';
import { setEntity } from '@atrium/contracts/list/set';
import { entityPage } from '../../crud/EntityPage';
import { registerMessages } from '../../crud/messages';

registerMessages({ 'zh-CN': listZh, 'en-US': listEn });

/** The spec's search table: the tenant's sets, entirely from the manifest. */
export const SearchTablePage = entityPage(setEntity);
