import {
  type Icon,
  IconBuildingBank,
  IconCash,
  IconCertificate,
  IconDatabase,
  IconDatabaseSearch,
  IconFileSearch,
  IconFileSpreadsheet,
  IconFolders,
  IconGavel,
  IconGitMerge,
  IconHeartRateMonitor,
  IconHome,
  IconId,
  IconLockAccess,
  IconOld,
  IconPoint,
  IconProgress,
  IconReceipt,
  IconReportMoney,
  IconSettings,
  IconShieldLock,
  IconSignature,
  IconUserCircle,
  IconUsers,
  IconUsersGroup,
  IconWritingSign,
} from '@tabler/icons-react';

/** The Tabler icons the menu tree names (packages/domain/src/menu.ts `icon`), imported one by one. */
const icons: Record<string, Icon> = {
  home: IconHome,
  'user-circle': IconUserCircle,
  gavel: IconGavel,
  'file-search': IconFileSearch,
  'heart-rate-monitor': IconHeartRateMonitor,
  old: IconOld,
  'report-money': IconReportMoney,
  cash: IconCash,
  folders: IconFolders,
  'lock-access': IconLockAccess,
  users: IconUsers,
  'shield-lock': IconShieldLock,
  'database-search': IconDatabaseSearch,
  receipt: IconReceipt,
  id: IconId,
  signature: IconSignature,
  'writing-sign': IconWritingSign,
  'git-merge': IconGitMerge,
  certificate: IconCertificate,
  'file-spreadsheet': IconFileSpreadsheet,
  'users-group': IconUsersGroup,
  settings: IconSettings,
  'building-bank': IconBuildingBank,
  database: IconDatabase,
  progress: IconProgress,
};

/** Names the map knows; a menu icon outside it would render as a plain dot. */
export const menuIconNames: readonly string[] = Object.keys(icons);

export function MenuIcon({ name, size = 20 }: { name?: string; size?: number }) {
  const C = (name && icons[name]) || IconPoint;
  return <C size={size} stroke={1.6} aria-hidden="true" />;
}
