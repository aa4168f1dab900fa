package danger

import "testing"

// TestPackFs names the rule of the filesystem destruction pack each command must be decided by ("": allowed).
func TestPackFs(t *testing.T) {
	checkPack(t, []packCase{
		{"find / -delete", "fs.find-delete"},
		{"mv * /tmp/trash/", "fs.mv-critical"},
		{"mv notes.txt /dev/null", "fs.mv-devnull"},
		{"mv /home/dev/proj \"$(cat n)\"", "fs.mv-dynamic"},
		{"rm -rf /", "fs.rm-critical"},
		{"rm -rf --no-preserve-root /", "fs.rm-no-preserve-root"},
		{"rm -rf /tmp", "fs.rm-temp"},
		{"rm -rf \"${DIST}/\"", "fs.rm-unset-variable"},
		{"rsync -a --delete empty/ ~/", "fs.rsync-delete"},
		{"shred -n 5 -u ~/.gitconfig", "fs.shred"},
		{"ls -la /", ""},
		{"rm -f *.log", ""},
		{"rm -rf ./tmp/*", ""},
	})
}
