/**
 * The strings of the release manifests' pages (their fields, entities and empty values), in both
 * languages, written once: the web app registers them with the rest of release management's strings.
 */
export const releaseZh: Record<string, string> = {
  'release.key': '标识',
  'release.name': '名称',
  'release.artifactSource': '制品来源',
  'release.keepReleases': '保留版本数',
  'release.project.entity': '项目',
  'release.userProject.entity': '授权',
  'release.project': '项目',
  'release.env': '环境',
  'release.user': '用户',
  'release.level': '权限级别',
  'release.allEnvs': '全部环境',
};

export const releaseEn: Record<string, string> = {
  'release.key': 'Key',
  'release.name': 'Name',
  'release.artifactSource': 'Artifact source',
  'release.keepReleases': 'Releases to keep',
  'release.project.entity': 'Project',
  'release.userProject.entity': 'Grant',
  'release.project': 'Project',
  'release.env': 'Environment',
  'release.user': 'User',
  'release.level': 'Level',
  'release.allEnvs': 'All environments',
};
