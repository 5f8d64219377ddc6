/** The icons route metadata may name (`meta.icon`), each under its own name. */
export {
  IconApps,
  IconCheckCircle,
  IconCloud,
  IconDashboard,
  IconExclamationCircle,
  IconFile,
  IconGift,
  IconHome,
  IconLink,
  IconList,
  IconQuestionCircle,
  IconSettings,
  IconStorage,
  IconUser,
  IconUserGroup,
} from '@arco-design/web-react/icon';
