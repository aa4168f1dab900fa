package danger

import "testing"

// TestPackPerm names the rule of the permissions pack each command must be decided by ("": allowed).
func TestPackPerm(t *testing.T) {
	checkPack(t, []packCase{
		{"chmod 000 ~", "perm.critical"},
		{"sudo chmod 666 /var/run/docker.sock", "perm.device"},
		{"chmod -R 777 /", "perm.recursive-critical"},
		{"chmod 666 ~/.ssh/id_ed25519", "perm.secret"},
		{"chmod u+s /bin/bash", "perm.setuid"},
		{"sudo chmod 000 /etc", "perm.system"},
		{"chmod -R 777 .", "perm.world-writable"},
		{"chmod u+x bin/*", ""},
		{"chmod 700 ~/.ssh", ""},
		{"chmod -R 755 public/", ""},
	})
}
