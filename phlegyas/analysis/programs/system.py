"""The session and the machine: editors and terminals, processes, devices, users, services, and the
shell builtins that only affect this shell."""
from __future__ import annotations

from phlegyas.analysis.programs.spec import NAVIGATION, READ_ONLY, E, Spec, add, mut, ro, subs

SYSTEMCTL_VALUES = E("-H --host -M --machine -t --type --state -p --property -n --lines -o --output --signal -s "
                     "--root --kill-whom --job-mode --what --timestamp --image --drop-in --when --check-inhibitors")
SYSTEMCTL_FLAGS = E("--no-pager -a --all -l --full --user --system --global -q --quiet --no-legend --plain --failed "
                    "-r --recursive --reverse --after --before --show-types --value --no-ask-password --no-block "
                    "--no-wall --no-reload --now --runtime --force -f --with-dependencies --legend --firmware-setup "
                    "-i --ignore-inhibitors --help --version -h")
"""systemctl's options; the changing subcommands are not Tier-2 safe whatever their options."""

SYSTEM_TOOLS: dict[str, Spec] = {}
"""Editors, terminals, system programs and shell builtins, in the order of the program table."""


def _add(names: str, spec: Spec) -> None:
    add(SYSTEM_TOOLS, names, spec)


# Editors, pagers with commands, terminals, REPLs: code runs at the keyboard.
_add("vi vim nvim view ex ed red nano pico emacs emacsclient micro joe kak hx helix code subl gedit kate",
     Spec(does="opens an editor", handler="editor",
          examples=(("vim -c ':!id' a", "executes notsafe"), ("nano a.txt", "notsafe"))))
_add("tmux screen tmate byobu zellij", Spec(does="starts a terminal session", handler="editor",
                                                          examples=(("tmux new -d 'sh'", "notsafe"),)))

# Processes and the system.
_add("kill pkill killall skill xkill", Spec(operands="none", does="signals processes",
                                            value_opts=E("-s -n -u -g -t -P --signal"),
                                            examples=(("kill -9 1234", "mutates notsafe"), ("pkill sshd", "mutates notsafe"))))
_add("renice", Spec(operands="none", does="changes process priorities", value_opts=E("-n -p -g -u"),
                                     examples=(("renice -n 5 -p 1", "mutates notsafe"),)))
_add("shutdown reboot halt poweroff init telinit",
     Spec(operands="none", does="stops or restarts the machine", examples=(("reboot", "mutates notsafe"),)))
_add("umount swapon swapoff mkswap fdisk sfdisk parted gdisk losetup cryptsetup lvcreate lvremove vgcreate pvcreate "
     "mkfs mkfs.ext4 mkfs.ext3 mkfs.xfs mkfs.vfat mkfs.btrfs mke2fs wipefs tune2fs e2fsck fsck resize2fs "
     "dmsetup hdparm blkdiscard",
     Spec(operands="none", does="changes disks or file systems", examples=(("mkfs.ext4 /dev/sdb1", "mutates notsafe"),)))
_add("useradd userdel usermod groupadd groupdel groupmod passwd chpasswd chage adduser deluser visudo vipw "
     "newusers gpasswd",
     Spec(operands="none", does="changes users or passwords", examples=(("passwd root", "mutates notsafe"),)))
_add("modprobe insmod rmmod depmod ldconfig update-grub grub-install update-alternatives update-initramfs "
     "setcap setenforce iptables ip6tables nft ufw firewall-cmd timedatectl localectl "
     "hostnamectl loginctl busctl dbus-send",
     Spec(operands="none", does="changes system configuration", handler="system_config",
          value_opts=E("-H --host -M --machine"), exec_flags=E("--address"),
          examples=(("iptables -F", "mutates notsafe"), ("iptables -L -n", "readonly"),
                    ("busctl --address=unixexec:path=/bin/sh", "executes notsafe"),
                    ("hostnamectl", "readonly"), ("hostnamectl set-hostname x", "mutates notsafe"))))
_add("getcap", ro(operands="read", flags=E("-r -v -n -h"),
                  examples=(("getcap /usr/bin/python3", "readonly safe"), ("getcap -r /usr/bin", "readonly safe"))))
_add("crontab", Spec(operands="none", does="installs scheduled jobs", readonly_flags=E("-l"),
                     examples=(("crontab -l", "readonly"), ("crontab jobs.txt", "mutates notsafe"))))
_add("at batch", Spec(operands="none", does="schedules commands", handler="stdin_code",
                      examples=(("echo id | at now", "mutates notsafe"),)))
_add("systemctl", Spec(operands="none", value_opts=SYSTEMCTL_VALUES, flags=SYSTEMCTL_FLAGS,
                       subcommands=subs({}, (
                           "status show cat is-active is-enabled is-failed is-system-running list-units "
                           "list-unit-files list-timers list-sockets list-dependencies list-jobs list-machines "
                           "get-default help show-environment",
                           ro(operands="none", value_opts=SYSTEMCTL_VALUES, flags=SYSTEMCTL_FLAGS)),
                           ("", ro(operands="none", value_opts=SYSTEMCTL_VALUES, flags=SYSTEMCTL_FLAGS)),
                           ("*", mut("changes system services", operands="none")),
                           ("edit", mut("edits a service", operands="none", handler="editor"))),
                       examples=(("systemctl status nginx", "readonly safe"),
                                 ("systemctl --no-pager status nginx -l", "readonly safe"),
                                 ("systemctl list-units --failed --no-legend", "readonly safe"),
                                 ("systemctl restart nginx", "mutates notsafe"))))
_add("service", Spec(operands="none", handler="service", does="changes system services",
                     examples=(("service nginx status", "readonly"), ("service nginx stop", "mutates notsafe"))))

# Shell builtins that only affect this shell.
_add("cd pushd popd", Spec(readonly=True, category=NAVIGATION, operands="none", flags=E("-L -P -e -@ -n"),
                           examples=(("cd src", "readonly safe"), ("cd /tmp && ls", "readonly safe"))))
_add("set shopt unset export declare typeset local readonly let break continue return exit logout "
     "caller disown bg fg setopt unsetopt autoload emulate zmodload-list",
     Spec(readonly=True, category=NAVIGATION, operands="none", handler="shell_state", value_opts=E("-o"),
          flags=E("-a -b -e -f -h -k -m -n -p -t -u -v -x -B -C -E -H -P -T -s -q -A -F -g -i -I -l -r -L -R -U -z "
                  "-X -d"), numeric=True,
          examples=(("set -euo pipefail", "readonly safe"), ("export FOO=1", "readonly safe"),
                    ("export LD_PRELOAD=/tmp/x.so", "executes notsafe"),
                    ("export PATH=/tmp/evil:$PATH", "notsafe"))))
_add("alias unalias", Spec(operands="none", does="defines aliases", examples=(("alias ls='rm -rf ~'", "notsafe"),)))
_add("trap", Spec(operands="none", handler="trap", readonly=True, category=NAVIGATION, flags=E("-l -p"),
                  examples=(("trap 'rm -rf src' EXIT", "deletes notsafe"), ("trap - EXIT", "readonly safe"),
                            ("trap 'rm -f /tmp/x' EXIT", "deletes safe"))))
_add("enable", Spec(operands="none", does="loads shell builtins", exec_flags=E("-f"),
                    examples=(("enable -f ./lib.so x", "executes notsafe"),)))
_add("history fc", Spec(operands="none", handler="history", readonly=True, category=READ_ONLY,
                        flags=E("-c -a -n -r -w -p -s -l"), value_opts=E("-d"), exec_flags=E("-e"), numeric=True,
                        examples=(("history", "readonly safe"), ("history 20", "readonly safe"),
                                  ("fc -l -10", "readonly safe"), ("history -c", "mutates notsafe"),
                                  ("fc -s", "executes notsafe"))))
_add("deactivate", Spec(readonly=True, category=NAVIGATION, operands="none", flags=E(""), examples=(("deactivate", "safe"),)))
_add("mapfile readarray", ro(operands="none", value_opts=E("-d -n -O -s -u -C -c"), flags=E("-t"),
                             exec_flags=E("-C"), examples=(("mapfile -t lines < a.txt", "readonly safe"),)))
