import common from './index.js';

export const {
  isWindows, isLinux, isMacOS, isAIX, isIBMi, isFreeBSD, isOpenBSD, isSunOS, isMainThread,
  isInsideDirWithUnusualChars, hasCrypto, hasIntl, mustCall, mustCallAtLeast, mustSucceed, mustNotCall,
  mustNotMutateObjectDeep, expectsError, expectWarning, skip, printSkipMessage, platformTimeout,
  canCreateSymLink, allowGlobals, invalidArgTypeHelper, runWithInvalidFD, getArrayBufferViews,
  escapePOSIXShell, skipIf32Bits, isDebug, hasInspector, hasSQLite, pwdCommand, spawnPromisified,
  getBufferSources,
} = common;
export default common;
