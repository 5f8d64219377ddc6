// the ERP strings live with the contracts, so that the server's Excel export speaks them too
export { erpEn, erpZh } from '@atrium/contracts/erp/messages';
