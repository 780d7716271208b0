"""Program name → the detectors that look at it. One dict lookup per invocation; programs with no entry
get only the generic checks (redirections, production deploys)."""
from __future__ import annotations

from typing import Callable, Final

from phlegyas.analysis.tier1 import (
    accounts,
    backups,
    cloud,
    data_verbs,
    delete,
    disk,
    fetch,
    flows,
    frameworks,
    gate,
    git,
    grants,
    install_sources,
    network,
    options,
    prod,
    resources,
    sql,
    system,
    writes,
)
from phlegyas.analysis.tier1.base import INTERPRETERS, SHELLS

Detector = Callable  # (Invocation, AnalysisEnv, list[Finding]) -> None


def _table() -> dict[str, tuple[Detector, ...]]:
    t: dict[str, list[Detector]] = {}

    def on(names, *detectors: Detector) -> None:
        for name in ([names] if isinstance(names, str) else names):
            t.setdefault(name, []).extend(detectors)

    # deletion
    on("rm", delete.detect_rm)
    on("unlink", delete.detect_unlink)
    on(("shred", "srm"), delete.detect_shred)
    on("find", delete.detect_find)
    on(("fd", "fdfind"), delete.detect_fd)
    on("parallel", network.detect_parallel)
    on("rsync", delete.detect_rsync, writes.detect_program_writes, network.detect_upload, prod.detect_copy_to_host)
    on("mv", delete.detect_mv, writes.detect_program_writes)
    on(("cp", "ln"), delete.detect_device_copy)
    on(options.programs_with_delete_flags(), options.detect_delete_flags)
    on("cmake", options.detect_cmake_remove)
    for name, detect in backups.PROGRAMS.items():  # backups, secret stores and private keys
        on(name, detect)
    # disks and permissions
    on(("mkfs", "mke2fs", "mkdosfs", "mkntfs", "mkexfatfs", "mkfs.ext4"), disk.detect_mkfs)
    on(("mkswap", "blkdiscard", "pvremove", "vgremove", "lvremove"), disk.detect_always_wipe)
    on("dd", disk.detect_dd)
    on(("format", "format.com", "diskpart", "diskpart.exe"), disk.detect_windows_format)
    on(("del", "erase", "rd", "rmdir", "Remove-Item", "remove-item", "ri"), disk.detect_windows_delete)
    on(("clear-disk", "format-volume", "initialize-disk", "remove-partition", "diskutil", "vssadmin", "vssadmin.exe",
        "wmic", "wmic.exe", "wbadmin", "wbadmin.exe"), disk.detect_windows_disk)
    on("wipefs", disk.detect_wipefs)
    on(("fdisk", "gdisk", "cfdisk", "sfdisk", "sgdisk", "parted"), disk.detect_partition)
    on(("zpool", "zfs", "nvme", "cryptsetup"), disk.detect_subcommand_wipe)
    on("hdparm", disk.detect_hdparm)
    on("badblocks", disk.detect_badblocks)
    on(("chmod", "chown", "chgrp", "setfacl"), disk.detect_perms)
    on("install", disk.detect_install_mode)
    # git
    on("git", git.detect_git)
    # databases
    on(("psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "clickhouse-client", "clickhouse", "cockroach",
        "sqlcmd", "cqlsh", "prisma"), sql.detect_sql_client)
    on(("mongo", "mongosh"), sql.detect_mongo)
    on("redis-cli", sql.detect_redis)
    on("etcdctl", sql.detect_etcdctl)
    on("consul", sql.detect_consul)
    on("dropdb", sql.detect_dropdb)
    on("mysqladmin", sql.detect_mysqladmin)
    # production and infrastructure
    on("kubectl", prod.detect_kubectl, accounts.detect_cluster_admin)
    on("helm", prod.detect_helm, system.detect_publish)
    on(("terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf"), prod.detect_terraform)
    on(("aws", "gcloud", "az", "gsutil", "doctl"), prod.detect_cloud)
    on(cloud.CLOUD_PROGRAMS, cloud.detect_cloud_data)
    on(data_verbs.PROGRAMS, data_verbs.detect_data_verbs)
    on(data_verbs.CLEANERS, data_verbs.detect_emptied_dirs)
    on(install_sources.PROGRAMS, install_sources.detect_install_source)
    on(("aws", "gcloud", "az"), accounts.detect_cloud_admin)
    on("aws", grants.detect_cloud_trust)
    on(("aws", "gcloud", "gsutil"), grants.detect_cloud_public)
    on("ssh-copy-id", grants.detect_ssh_copy_id)
    on("tailscale", grants.detect_tailscale)
    on(("ssh", "chisel"), grants.detect_reverse_tunnel)
    on(("git", "pip", "pip3", "uv", "npm", "pnpm", "yarn", "go", "cargo", "helm", "docker", "podman"),
       network.detect_url_secret)
    on("kubectl", grants.detect_kube_grants)
    on("gh", grants.detect_gh_grants)
    on("ssh-import-id", grants.detect_ssh_import)
    on(("xterm", "urxvt", "rxvt", "xfce4-terminal", "gnome-terminal", "konsole"), grants.detect_remote_display)
    on(("aws", "gsutil", "rclone"), network.detect_upload)
    on("act", accounts.detect_act_image)
    on("dockerd", accounts.detect_open_daemon)
    on(("ngrok", "cloudflared"), accounts.detect_exposed_files)
    on(("lxc", "incus"), accounts.detect_lxc_host_root)
    on(("apt-get", "apt", "aptitude", "dpkg", "dnf", "yum", "pacman", "zypper", "rpm"), system.detect_essential_removal)
    on(("docker", "podman"), prod.detect_docker, system.detect_publish, accounts.detect_host_root,
       flows.detect_login_secret)
    on(("helm", "oras", "skopeo", "crane"), flows.detect_login_secret)
    on(("twine", "gem", "npm", "cargo", "poetry", "pnpm", "yarn", "uv", "flit", "hatch"),
       flows.detect_publish_credential)
    on("ssh", prod.detect_ssh, network.detect_upload)
    on(("scp", "sftp"), prod.detect_copy_to_host, network.detect_upload, writes.detect_program_writes)
    on(("ftp", "lftp", "tnftp", "tftp", "smbclient", "logger", "hping3", "ntfy", "apprise", "mc", "mcli", "duplicity",
        "wormhole", "croc", "ffsend", "pastebinit"), network.detect_upload)
    # network
    on(tuple(SHELLS) + tuple(INTERPRETERS), network.detect_interpreter)
    on(("eval", "source", "."), network.detect_eval_source)
    on("exec", network.detect_socket_words)
    on(("nc", "ncat", "netcat", "telnet", "socat", "socket", "openssl"), network.detect_netcat)
    on(("nc", "ncat", "netcat", "telnet", "socat", "openssl"), network.detect_upload)
    on(("nc", "ncat", "netcat", "telnet"), sql.detect_raw_protocol)
    on("busybox", network.detect_netcat)
    on(("curl", "curlie", "wget", "wget2", "http", "https", "httpie", "xh"), network.detect_upload,
       fetch.detect_http_delete, fetch.detect_request)
    on(("curl", "wget"), writes.detect_program_writes)
    on("ztcp", network.detect_ztcp)
    on(("awk", "gawk", "mawk", "nawk"), network.detect_awk)
    on(("sed", "gsed"), network.detect_sed)
    on(network.COVERT_CHANNELS, network.detect_covert_channel)
    on(("gh",) + tuple(network.MAILERS), network.detect_upload)
    on(("npx", "pnpx", "bunx", "uvx", "npm", "pnpm", "yarn", "bun", "pipx", "uv", "deno", "jbang"),
       network.detect_remote_package)
    # writes and persistence
    on(("tee", "sed", "perl", "ruby", "awk", "gawk", "cp", "install", "ln", "truncate", "fallocate"), writes.detect_program_writes)
    on("crontab", writes.detect_crontab)
    on(("at", "batch"), writes.detect_at)
    on("systemctl", writes.detect_systemctl_persist, system.detect_systemctl)
    on("launchctl", writes.detect_launchctl)
    on(("update-rc.d", "chkconfig", "rc-update"), writes.detect_rc_tools)
    on("ssh-copy-id", writes.detect_ssh_copy_id)
    on("ssh-keygen", writes.detect_ssh_keygen)
    on(("tar", "zip"), delete.detect_archive_move)
    # privilege, publishing, the machine
    on(("sudo", "doas", "su", "pkexec", "run0", "sudoedit"), system.detect_sudo)
    on(("npm", "pnpm", "yarn", "bun", "cargo", "poetry", "uv", "flit", "hatch", "pdm", "twine", "gem", "buildah",
        "vsce", "ovsx", "dart", "flutter", "mvn", "gradle", "gradlew", "mix", "pod", "dotnet", "nuget", "gh"),
       system.detect_publish)
    on(("npm", "pnpm", "yarn", "bun", "make", "just", "rake", "bundle", "cap", "mix", "fab", "invoke", "poetry",
        "gradle", "gradlew", "mvn", "rails", "ansible-playbook", "kamal", "serverless", "sls", "vercel",
        "netlify", "fly", "flyctl", "heroku", "eb", "firebase", "wrangler", "railway", "sst", "skaffold", "argocd",
        "nomad", "copilot", "cf", "task", "nox", "tox", "uv", "pdm", "hatch", "dotnet", "docker-compose"),
       prod.detect_deploy)
    # the gate itself
    on("phlegyas", gate.detect_phlegyas)
    on("phlegyas-trust", gate.detect_phlegyas_trust)
    on(tuple(n for n in INTERPRETERS if n.startswith("python")), gate.detect_python_module,
       frameworks.detect_framework_reset, system.detect_file_server)
    on(frameworks.PROGRAMS, frameworks.detect_framework_reset)
    on("kill", system.detect_kill)
    on(("killall", "pkill", "killall5"), system.detect_killall)
    on("service", system.detect_service)
    on(("shutdown", "reboot", "halt", "poweroff", "init", "telinit", "dbus-send", "busctl", "gdbus", "qdbus"),
       system.detect_power)
    on(("iptables", "ip6tables", "iptables-legacy", "iptables-nft"), system.detect_iptables)
    on("ufw", system.detect_ufw)
    on("nft", system.detect_nft)
    on("setenforce", system.detect_setenforce)
    # accounts, capabilities, mounts
    on("setcap", accounts.detect_setcap)
    on("passwd", accounts.detect_passwd)
    on("chpasswd", accounts.detect_chpasswd)
    on("hg", git.detect_hg)
    on(("pass", "gopass"), git.detect_pass_remote)
    on(("usermod", "useradd", "adduser", "gpasswd", "addgroup"), accounts.detect_usermod)
    on(("userdel", "deluser"), accounts.detect_userdel)
    on(("mount", "umount"), accounts.detect_mount)
    # exhausting the machine: the disk filled, code that loops without end
    for name in resources.FILL_PROGRAMS:
        t.setdefault(name, [prod.detect_deploy]).append(resources.detect_fill)
    on(tuple(INTERPRETERS), resources.detect_endless_code)
    return {k: tuple(v) for k, v in t.items()}


DETECTORS: Final[dict[str, tuple[Detector, ...]]] = _table()
DEFAULT: Final[tuple[Detector, ...]] = (prod.detect_deploy,)
