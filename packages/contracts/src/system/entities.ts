import { loginLogEntity, operLogEntity, sessionEntity } from './audit';
import { deptEntity } from './dept';
import { systemManifests } from './entity';
import { menuEntity } from './menu';
import { postEntity } from './post';
import { roleEntity } from './role';
import { tenantEntity } from './tenant';
import { userEntity } from './user';

/** The system entities on the manifest machinery (the server registers them, the web renders their pages). */
export const systemEntities = systemManifests([
  postEntity,
  deptEntity,
  roleEntity,
  operLogEntity,
  loginLogEntity,
  sessionEntity,
  menuEntity,
  tenantEntity,
  userEntity,
]);
