package danger

import "testing"

// TestPackClobber names the rule of the clobbered files pack each command must be decided by ("": allowed).
func TestPackClobber(t *testing.T) {
	checkPack(t, []packCase{
		{"find / -maxdepth 0 -fprint /etc/ld.so.preload", "persist.preload"},
		{"find . -name '*.go' -fprint /tmp/gofiles.txt", ""},
		{"shred -u ~/.ssh/id_rsa", "clobber.credential"},
		{"sudo cp build/mytool /usr/local/bin/", "clobber.local-bin"},
		{"echo 'set -o vi' >> ~/.bashrc", "clobber.rc-append"},
		{"> ~/.zshrc", "clobber.rc-file"},
		{"echo \"127.0.0.1 api.local\" | sudo tee -a /etc/hosts", "clobber.system-append"},
		{"> /etc/fstab", "clobber.system-file"},
		{"sudo nginx -t", ""},
		{"cat /etc/hosts", ""},
		{"cat dotfiles/zshrc", ""},
	})
}
