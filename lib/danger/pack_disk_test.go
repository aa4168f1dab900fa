package danger

import "testing"

// TestPackDisk names the rule of the disks pack each command must be decided by ("": allowed).
func TestPackDisk(t *testing.T) {
	checkPack(t, []packCase{
		// Other writers onto a device; pools and volumes destroyed.
		{"dcfldd if=/dev/zero of=/dev/sda", "disk.write-device"},
		{"ddrescue -f /dev/zero /dev/sda", "disk.write-device"},
		{"xxd -r zero.hex /dev/sda", "disk.write-device"},
		{"socat -u /dev/zero /dev/sda", "disk.write-device"},
		{"socat -u FILE:img.raw OPEN:/dev/nvme0n1,wronly", "disk.write-device"},
		{"bmaptool copy img.bz2 /dev/sda", "disk.write-device"},
		{"qemu-img convert -O raw disk.qcow2 /dev/sda", "disk.write-device"},
		{"zpool destroy -f rpool", "disk.volume-destroy"},
		{"zfs destroy -r rpool/ROOT", "disk.volume-destroy"},
		{"zpool labelclear -f /dev/sda", "disk.volume-destroy"},
		{"lvremove -f /dev/ubuntu-vg/ubuntu-lv", "disk.volume-destroy"},
		{"vgremove -f ubuntu-vg", "disk.volume-destroy"},
		{"pvremove -ff /dev/sda", "disk.volume-destroy"},
		{"mdadm --zero-superblock /dev/sda1", "disk.volume-destroy"},
		{"ddrescue /dev/sdb disk.img disk.map", ""},
		{"qemu-img convert -O raw disk.qcow2 disk.raw", ""},
		{"xxd -r dump.hex out.bin", ""},
		{"socat TCP-LISTEN:8080,fork TCP:localhost:3000", ""},
		{"zfs destroy rpool/home@autosnap_2024-01-01", ""},
		{"zpool status", ""},
		{"lvs", ""},
		{"mdadm --detail /dev/md0", ""},
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
