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
		// Opening a secret to the group or other users, by octal or symbolic mode.
		{"chmod 0644 ~/.ssh/id_rsa", "perm.secret"},
		{"chmod g+w ~/.ssh/id_ed25519", "perm.secret"},
		{"sudo chmod 644 /etc/shadow", "perm.secret"},
		{"sudo chmod a+r /etc/gshadow", "perm.secret"},
		{"chmod o+r /etc/sudoers", "perm.secret"},
		{"sudo chmod 0664 /etc/sudoers.d/90-cloud-init-users", "perm.secret"},
		{"sudo chmod 0440 /etc/sudoers.d/90-cloud-init-users", ""},
		{"sudo chmod 0440 /etc/sudoers", ""},
		{"chmod 644 ~/.gnupg/private-keys-v1.d/*", "perm.secret"},
		{"chmod 640 .env", "perm.secret"},
		{"chmod 600 ~/.ssh/id_rsa", ""},
		{"chmod go-rwx ~/.ssh/id_rsa", ""},
		{"chmod 644 ~/.ssh/id_rsa.pub ~/.ssh/config ~/.ssh/known_hosts", ""},
		{"chmod 755 ~/.ssh", ""},
		{"chmod 644 README.md", ""},
		{"install -m 0644 .env.production /srv/app/.env", "perm.secret"},
		{"setfacl -m o::rw ~/.ssh/id_ecdsa", "perm.secret"},
		{"install -m 0600 .env.production /srv/app/.env", ""},
		{"install -m 0755 build/app /usr/local/bin/app", "clobber.local-bin"},
		{"setfacl -m u::rw ~/.ssh/id_ecdsa", ""},
		{"chmod -R 755 public/", ""},
	})
}
