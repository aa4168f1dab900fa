package danger

import "testing"

// TestPackDisk names the rule of the disks pack each command must be decided by ("": allowed).
func TestPackDisk(t *testing.T) {
	checkPack(t, []packCase{
		{"pwsh -c 'Format-Volume -DriveLetter D'", "disk.format"},
		{"mkfs.ext4 /dev/sdb1", "disk.mkfs"},
		{"sudo fdisk /dev/sda", "disk.partition"},
		{"sudo badblocks -wsv /dev/sdb", "disk.wipe"},
		{"wipefs -a /dev/sda", "disk.wipefs"},
		{"sudo shred -vzn 3 /dev/sda", "disk.write-device"},
		{"df -h /", ""},
		{"lsblk -f", ""},
		{"sudo fdisk -l", ""},
	})
}

// TestPackDiskMacOS: macOS's disk tools erase and repartition as mkfs and fdisk do.
func TestPackDiskMacOS(t *testing.T) {
	checkPackIn(t, macWorld(), []packCase{
		{"diskutil eraseDisk APFS Empty disk2", "disk.format"},
		{"sudo newfs_apfs -v Data /dev/disk2s1", "disk.mkfs"},
		{"newfs_hfs /dev/rdisk3", "disk.mkfs"},
		{"sudo newfs_msdos -F 32 /dev/disk4s1", "disk.mkfs"},
		{"sudo gpt destroy disk2", "disk.partition"},
		{"sudo gpt create -f /dev/disk2", "disk.partition"},
		{"sudo asr restore --source base.dmg --target /Volumes/Data --erase --noprompt", "disk.format"},
		{"sudo asr -source base.dmg -target /Volumes/Data -erase", "disk.format"},
		{"diskutil list", ""},
		{"diskutil info disk0", ""},
		{"gpt show disk0", ""},
		{"asr imagescan --source base.dmg", ""},
		{"newfs_apfs -h", ""},
	})
}
