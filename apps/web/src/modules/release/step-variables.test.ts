import { describe, expect, it } from 'vitest';
import { unsetVariables } from './step-variables';

describe('unsetVariables', () => {
  it('names what the hint once suggested: $VERSION, which no step sets', () => {
    expect(unsetVariables('#!/bin/sh\nset -eu\necho "deploying $VERSION"\n')).toEqual(['VERSION']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    expect(unsetVariables('tar xf "app-${VERSION}.tgz" -C "${TARGET:-/srv}"')).toEqual(['VERSION', 'TARGET']);
  });

  it('accepts what the agent sets, the ATRIUM_VAR_ names, the shell’s own and what the script assigns', () => {
    const script = [
      '#!/bin/sh',
      'set -eu',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      'echo "$ATRIUM_VERSION $ATRIUM_TASK_ID $ATRIUM_STEP $ATRIUM_RUN_DIR $ATRIUM_VAR_VERSION ${ATRIUM_VAR_HOST}"',
      'cd "$HOME" && echo "$PATH $LANG $PWD $1 $@ $? $#"',
      'target=/srv/app; export MODE=fast',
      'read -r answer',
      'for host in a b; do echo "$host $target $MODE $answer"; done',
      "echo '$NOT_EXPANDED' # $IN_A_COMMENT",
    ].join('\n');
    expect(unsetVariables(script)).toEqual([]);
  });
});
