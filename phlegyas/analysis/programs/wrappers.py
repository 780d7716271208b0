"""Programs that run another program: the wrappers (``sudo``, ``env``, ``timeout``, ``ssh``, ``xargs`` …)
and the package runners (``npx TOOL``, ``uv run CMD``, ``bundle exec CMD`` …)."""
from __future__ import annotations

from phlegyas.analysis.programs.network import SSH_VALUES
from phlegyas.analysis.programs.spec import E, Runner, Wrapper

# -- wrappers --------------------------------------------------------------------------------------

WRAPPERS: dict[str, Wrapper] = {}


def _wrap(names: str, w: Wrapper) -> None:
    for name in names.split():
        WRAPPERS[name] = w


_wrap("sudo", Wrapper(value_opts=E("-u --user -g --group -h --host -p --prompt -C --close-from -D --chdir -r --role "
                                   "-t --type -U --other-user -T --command-timeout -R --chroot"),
                      flags=E("-E --preserve-env -n --non-interactive -b --background -H --set-home -P "
                              "--preserve-groups -S --stdin -B --bell -N --no-update -k --reset-timestamp"),
                      query_opts=E("-l --list"),
                      shell_opts=E("-i --login -s --shell"), exec_opts=E("-A --askpass"), privileged=True,
                      alone="readonly", examples=(("sudo ls /root", "notsafe"), ("sudo -u bob -- rm -rf /x", "deletes notsafe"),
                                                  ("sudo -i", "executes notsafe"), ("sudo -l", "notsafe"),
                                                  ("sudo -k rm -rf /x", "deletes notsafe"),
                                                  ("sudo -V rm -rf /x", "deletes notsafe"),
                                                  ("sudo -h localhost rm -rf /x", "deletes notsafe"))))
QUERY_ALONE: dict[str, frozenset[str]] = {"sudo": E("-v --validate -K --remove-timestamp -V --version --help -h")}
"""Options that make a wrapper run nothing only when no command follows (``sudo -v``); with a command the
command is judged (``sudo -V rm -rf /``: the stricter reading)."""

_wrap("doas pkexec run0 ksu", Wrapper(value_opts=E("-u -C --user"), shell_opts=E("-s"), privileged=True, alone="shell",
                                  examples=(("doas rm -rf /", "deletes notsafe"),)))
_wrap("env", Wrapper(value_opts=E("-u --unset -C --chdir -S --split-string"), split_opts=E("-S --split-string"),
                     flags=E("-i --ignore-environment -0 --null -v --debug --help --version"),
                     assignments=True, alone="readonly",
                     examples=(("env", "readonly notsafe"), ("env LANG=C ls", "readonly safe"),
                               ("env FOO=1 ls", "readonly notsafe"),
                               ("env -S 'rm -rf /x'", "deletes notsafe"), ("env -i /bin/sh", "executes notsafe"))))
_wrap("timeout", Wrapper(value_opts=E("-s --signal -k --kill-after"), leading=1,
                         flags=E("--preserve-status --foreground -v --verbose --help --version"),
                         examples=(("timeout 5 ls", "readonly safe"), ("timeout -s KILL 5 rm -rf x", "deletes notsafe"),
                                   ("timeout --preserve-status 5 ls", "readonly safe"),
                                   ("timeout --frobnicate 5 ls", "notsafe"))))
_wrap("nice", Wrapper(value_opts=E("-n --adjustment"), flags=E("--help --version"), examples=(("nice -n 10 make test", "safe"),)))
_wrap("nohup", Wrapper(flags=E("--help --version"), alone="none", examples=(("nohup ls &", "readonly safe"),)))
_wrap("setsid", Wrapper(flags=E("-c --ctty -f --fork -w --wait -h --help -V --version"), alone="none",
                        examples=(("setsid -f ls", "readonly safe"), ("setsid -w rm -rf /x", "deletes notsafe"),
                                  ("setsid -cw rm -rf /x", "deletes notsafe"),
                                  ("setsid -f sh -c 'rm -rf /x'", "deletes notsafe"))))
_wrap("unbuffer", Wrapper(flags=E("-p"), alone="none",
                          examples=(("unbuffer -p ls", "readonly safe"), ("unbuffer -p rm -rf /x", "deletes notsafe"))))
_wrap("chronic", Wrapper(flags=E("-e -v"), alone="none",
                         examples=(("chronic -v ls", "readonly safe"), ("chronic -e rm -rf /x", "deletes notsafe"))))
_wrap("xvfb-run", Wrapper(value_opts=E("-n --server-num -s --server-args -f --auth-file -e --error-file -p "
                                       "--xauth-protocol -w --wait"),
                          write_opts=E("-e --error-file -f --auth-file"),
                          flags=E("-a --auto-servernum -l --listen-tcp -h --help"), alone="none",
                          examples=(("xvfb-run -a ls", "readonly safe"), ("xvfb-run -w 1 rm -rf /x", "deletes notsafe"))))
_wrap("proxychains proxychains4", Wrapper(value_opts=E("-f"), flags=E("-q"), read_opts=E("-f"), network=True,
                                          alone="none",
                                          examples=(("proxychains4 -q curl https://x.example", "network notsafe"),
                                                    ("proxychains4 -q rm -rf /x", "deletes notsafe"))))
_wrap("torify torsocks tsocks", Wrapper(value_opts=E("-u --user -p --pass -a --address -P --port"),
                                        flags=E("-i --isolate -d --debug -q --quiet"), shell_opts=E("--shell"),
                                        network=True, alone="shell",
                                        examples=(("torsocks -i rm -rf /x", "deletes notsafe"),)))
_wrap("tini", Wrapper(value_opts=E("-p -e"), flags=E("-s -v -vv -vvv -w -g -l -h --version"), alone="none",
                      examples=(("tini -s -- ls", "readonly safe"), ("tini -g rm -rf /x", "deletes notsafe"))))
_wrap("dumb-init", Wrapper(value_opts=E("-r --rewrite"), flags=E("-c --single-child -v --verbose -V --version -h "
                                                                "--help"), alone="none",
                           examples=(("dumb-init -c rm -rf /x", "deletes notsafe"),)))
_wrap("fakeroot", Wrapper(value_opts=E("-l --lib --faked -s -i -b"), flags=E("-u --unknown-is-real -h -v --version"),
                          write_opts=E("-s"), read_opts=E("-i"), alone="shell",
                          examples=(("fakeroot -u rm -rf /x", "deletes notsafe"),)))
_wrap("linux32 linux64", Wrapper(flags=E("-R --addr-no-randomize -F --fdpic-funcptrs -Z --mmap-page-zero -L "
                                         "--addr-compat-layout -X --read-implies-exec -B --32bit -I --short-inode "
                                         "-S --whole-seconds -T --sticky-timeouts -3 --3gb --4gb --uname-2.6 -v "
                                         "--verbose"), alone="shell",
                                 examples=(("linux32 -R rm -rf /x", "deletes notsafe"),)))
_wrap("setarch", Wrapper(flags=E("-R --addr-no-randomize -F --fdpic-funcptrs -Z --mmap-page-zero -L "
                                 "--addr-compat-layout -X --read-implies-exec -B --32bit -I --short-inode -S "
                                 "--whole-seconds -T --sticky-timeouts -3 --3gb --4gb --uname-2.6 -v --verbose "
                                 "--list --help --version"), leading=1, alone="shell",
                         examples=(("setarch x86_64 -R rm -rf /x", "deletes notsafe"),)))
_wrap("caffeinate", Wrapper(value_opts=E("-t -w"), flags=E("-d -i -m -s -u"), alone="none",
                            examples=(("caffeinate -i make test", "safe"), ("caffeinate -d rm -rf /x", "deletes notsafe"))))
_wrap("catchsegv eatmydata nocache aoss padsp pasuspender dbus-launch dbus-run-session winpty grc runcon cgexec "
      "run-one firejail rlwrap",
      Wrapper(flags=E("--help --version"), alone="none",
              examples=(("eatmydata ls", "readonly safe"), ("eatmydata rm -rf /x", "deletes notsafe"),
                        ("firejail --noprofile rm -rf /x", "deletes notsafe"))))
_wrap("sem", Wrapper(value_opts=E("-j --jobs --id --timeout"), flags=E("--fg --bg -u --ungroup --wait --semaphore"),
                     rest_is_code=True, alone="none", examples=(("sem --id x rm -rf /x", "deletes notsafe"),)))
_wrap("gosu su-exec", Wrapper(flags=E("--help --version"), leading=1, privileged=True, alone="none",
                              examples=(("gosu bob ls", "notsafe"), ("gosu bob rm -rf /x", "deletes notsafe"),
                                        ("su-exec bob:bob rm -rf /x", "deletes notsafe"))))
_wrap("setpriv", Wrapper(value_opts=E("--reuid --regid --ruid --rgid --euid --egid --groups --inh-caps "
                                      "--ambient-caps --bounding-set --securebits --selinux-label "
                                      "--apparmor-profile --landlock-access --landlock-rule --pdeathsig --rlimit"),
                         flags=E("--clear-groups --keep-groups --init-groups --nnp --no-new-privs --reset-env "
                                 "-h --help -V --version"),
                         query_opts=E("-d --dump"), privileged=True, alone="none",
                         examples=(("setpriv --nnp ls", "notsafe"), ("setpriv --reuid=1000 rm -rf /x", "deletes notsafe"),
                                   ("setpriv -d", "notsafe"))))
_wrap("chpst", Wrapper(value_opts=E("-u -U -b -e -/ -n -l -L -m -d -o -p -f -c -r -t"), flags=E("-P -0 -1 -2 -v"),
                       privileged=True, alone="none",
                       examples=(("chpst -u bob ls", "notsafe"), ("chpst -P -n 1 rm -rf /x", "deletes notsafe"))))
_wrap("trickle", Wrapper(value_opts=E("-u -d -w -t -l -n"), flags=E("-h -v -V -s"), alone="none",
                         examples=(("trickle -d 100 ls", "readonly"), ("trickle -s -u 10 rm -rf /x", "deletes notsafe"))))
_wrap("chrt", Wrapper(value_opts=E("-T --sched-runtime -P --sched-period -D --sched-deadline"),
                      flags=E("-a --all-tasks -b --batch -d --deadline -f --fifo -i --idle -o --other -r --rr "
                              "-R --reset-on-fork -v --verbose -h --help -V --version"),
                      query_opts=E("-m --max"), leading=1, alone="none",
                      examples=(("chrt -i 0 ls", "readonly safe"), ("chrt --idle 0 rm -rf /x", "deletes notsafe"),
                                ("chrt -p 99 1", "notsafe"))))
_wrap("faketime", Wrapper(value_opts=E("-p --date-prog"), flags=E("-m -f --exclude-monotonic -h --help"), leading=1,
                          alone="none",
                          examples=(("faketime '2020-01-01' date", "readonly safe"),
                                    ("faketime '2020-01-01' rm -rf /x", "deletes notsafe"))))
_wrap("ssh-agent", Wrapper(value_opts=E("-a -E -O -P -t"), flags=E("-c -s -D -d"), alone="none",
                           examples=(("ssh-agent ls", "readonly safe"), ("ssh-agent -s rm -rf /x", "deletes notsafe"),
                                     ("ssh-agent -s", "notsafe"))))
_wrap("daemonize", Wrapper(value_opts=E("-c -e -E -o -p -l -u"), write_opts=E("-e -o -p -l"), flags=E("-a -v"),
                           alone="none", examples=(("daemonize /bin/rm -rf /x", "deletes notsafe"),)))
_wrap("capsh", Wrapper(alone="none", privileged=True,
                       examples=(("capsh --caps=cap_net_raw+eip -- -c 'rm -rf /x'", "deletes notsafe"),
                                 ("capsh --print", "notsafe"), ("capsh -- -c ls", "notsafe"))))
_wrap("bwrap", Wrapper(alone="none", examples=(("bwrap --bind / / rm -rf /x", "deletes notsafe"),
                                                ("bwrap --ro-bind /usr /usr --dev /dev ls", "notsafe"))))
_wrap("start-stop-daemon", Wrapper(privileged=True, alone="none",
                                   examples=(("start-stop-daemon --start --exec /bin/rm -- -rf /x", "deletes notsafe"),
                                             ("start-stop-daemon --stop --name web", "notsafe"))))
# profilers and memory checkers run the program they are given, as it would run alone
_wrap("valgrind", Wrapper(flags=E("-q --quiet -v --verbose --help --version"),
                          value_opts=E("--leak-check --show-leak-kinds --track-origins --error-exitcode --tool "
                                       "--trace-children --num-callers --errors-for-leak-kinds --gen-suppressions"),
                          write_opts=E("--log-file --xml-file --callgrind-out-file --massif-out-file"),
                          read_opts=E("--suppressions"),
                          examples=(("valgrind --leak-check=full --error-exitcode=1 ls", "readonly safe"),
                                    ("valgrind --leak-check=full ./build/tests/t", "notsafe"),
                                    ("valgrind --log-file=/etc/x ./build/t", "notsafe"),
                                    ("valgrind --tool=memcheck rm -rf /x", "deletes notsafe"), ("valgrind ls", "readonly"))))
_wrap("time", Wrapper(value_opts=E("-f --format -o --output"), write_opts=E("-o --output"),
                      flags=E("-p --portability -v --verbose -a --append -q --quiet --help --version"),
                      examples=(("time make test", "safe"), ("time -o /etc/x ls", "notsafe"))))
_wrap("command builtin", Wrapper(query_opts=E("-v -V"), flags=E("-p"), alone="none",
                                 examples=(("command -v rm", "readonly safe"), ("command rm -rf x", "deletes notsafe"))))
_wrap("exec", Wrapper(value_opts=E("-a"), flags=E("-c -l"), alone="readonly",
                      examples=(("exec ls", "readonly safe"), ("exec sh -c 'rm -rf x'", "deletes notsafe"))))
_wrap("stdbuf", Wrapper(value_opts=E("-i --input -o --output -e --error"), flags=E("--help --version"),
                        examples=(("stdbuf -oL tail -f a.log", "readonly safe"),)))
_wrap("ionice", Wrapper(value_opts=E("-c --class -n --classdata -p --pid -P --pgid -u --uid"),
                        flags=E("-t --ignore --help --version"),
                        examples=(("ionice -c3 du -sh .", "readonly safe"),)))
_wrap("watch", Wrapper(value_opts=E("-n --interval -q --equexit -s --shell"),
                       flags=E("-d --differences -t --no-title -b --beep -e --errexit -g --chgexit -c --color -C "
                               "--no-color -x --exec -p --precise -w --no-wrap -r --no-rerun --help --version"),
                       rest_is_code=True, argv_flags=E("-x --exec"), alone="none",
                       examples=(("watch -n 1 ls", "readonly safe"), ("watch 'rm -rf x'", "deletes notsafe"),
                                 ("watch -n 5 -x sh -c 'rm -rf x'", "deletes notsafe"))))
_wrap("nsenter", Wrapper(value_opts=E("-t --target -S --setuid -G --setgid -r --root -w --wd -W --wdns"),
                         privileged=True, alone="shell",
                         examples=(("nsenter -t 1 -m sh", "executes notsafe"),)))
_wrap("chroot", Wrapper(value_opts=E("--userspec --groups"), leading=1, privileged=True, alone="shell",
                        examples=(("chroot / sh", "executes notsafe"),)))
_wrap("flock", Wrapper(value_opts=E("-w --timeout -E --conflict-exit-code"), leading=1, leading_writes=True,
                       flags=E("-s --shared -x -e --exclusive -u --unlock -n --nb --nonblock -o --close -F "
                               "--no-fork --verbose --help --version"),
                       code_opts=E("-c --command"), alone="none",
                       examples=(("flock /tmp/l -c 'rm -rf x'", "deletes notsafe"), ("flock /tmp/l ls", "safe"))))
_wrap("strace ltrace", Wrapper(value_opts=E("-e -o -p -s -u -E -P -S -a -b -I -X -O --output --attach --user"),
                               write_opts=E("-o --output"), alone="none",
                               examples=(("strace -f ls", "readonly"), ("strace -o /dev/null sh", "executes notsafe"))))
_wrap("systemd-run", Wrapper(value_opts=E("-u --unit -p --property -E --setenv --uid --gid --nice -M --machine "
                                          "-H --host --on-calendar --on-active --slice --description --working-directory"),
                             privileged=True, alone="none",
                             examples=(("systemd-run --user ls", "notsafe"),)))
_wrap("su", Wrapper(value_opts=E("-s --shell -g --group -G --supp-group -w --whitelist-environment"),
                    code_opts=E("-c --command --session-command"), shell_opts=E("-s --shell"), privileged=True,
                    alone="shell", leading=0,
                    flags=E("- -l --login -m -p --preserve-environment -f --fast -P --pty -h --help -V --version"),
                    examples=(("su -c 'rm -rf x' bob", "deletes notsafe"), ("su", "executes notsafe"),
                              ("su - -c 'rm -rf /x'", "deletes notsafe"), ("su - bob -c 'rm -rf /x'", "deletes notsafe"),
                              ("su bob -- -c 'rm -rf /x'", "deletes notsafe"))))
_wrap("runuser", Wrapper(value_opts=E("-u --user -g --group -G --supp-group -s --shell -w"),
                         code_opts=E("-c --command"), privileged=True, alone="shell",
                         examples=(("runuser -u bob -- ls", "notsafe"),)))
_wrap("sg", Wrapper(code_opts=E("-c"), leading=1, privileged=True, alone="shell", rest_is_code=True,
                     examples=(("sg docker -c id", "notsafe"), ("sg docker 'rm -rf /x'", "deletes notsafe"))))
_wrap("newgrp", Wrapper(flags=E("-"), leading=1, privileged=True, alone="shell",
                        examples=(("newgrp docker", "executes notsafe"),)))
_wrap("script", Wrapper(value_opts=E("-T --log-timing -I --log-in -O --log-out -B --log-io -E --echo -m "
                                     "--logging-format"),
                        code_opts=E("-c --command"), write_opts=E("-T --log-timing -I --log-in -O --log-out -B --log-io"),
                        flags=E("-a --append -e --return -f --flush -q --quiet -h --help -V --version"),
                        alone="shell",
                        examples=(("script -q -c 'id' /dev/null", "notsafe"),
                                  ("script -q /dev/null -c 'rm -rf /x'", "deletes notsafe"),
                                  ("script -q /dev/null rm -rf /x", "deletes notsafe"))))
_wrap("taskset", Wrapper(value_opts=E("-p --pid"), flags=E("-c --cpu-list -a --all-tasks --help --version"),
                         leading=1,
                         examples=(("taskset 0x1 ls", "readonly safe"),)))
_wrap("numactl prlimit cpulimit choom unshare softlimit setlock pexec aa-exec genie logsave openvt",
      Wrapper(value_opts=E("-N -m -C -p --cpunodebind --membind --physcpubind --pid -l -n --limit"),
              privileged=False, alone="shell",
              examples=(("unshare -r sh", "executes notsafe"),)))
_wrap("sshpass", Wrapper(value_opts=E("-p -f -d -e -P"), network=True, alone="none",
                         examples=(("sshpass -p x ssh h ls", "notsafe"),)))
_wrap("perf", Wrapper(value_opts=E("-e -o -p -t -r -n -G -C -c -F"), leading=1, write_opts=E("-o --output"),
                     alone="none", examples=(("perf stat /bin/sh", "executes notsafe"),)))
_wrap("multitime", Wrapper(value_opts=E("-e -o -p -t -r -n"), write_opts=E("-o"), alone="none",
                           examples=(("multitime -n 5 ls", "readonly"),)))
_wrap("busybox toybox", Wrapper(alone="readonly", examples=(("busybox ls", "readonly safe"),
                                                            ("busybox sh -c 'rm -rf x'", "deletes notsafe"))))
_wrap("ssh", Wrapper(value_opts=SSH_VALUES, rest_is_code=True, leading=1, remote=True, network=True,
                     exec_opts=E("-o"), alone="shell",
                     examples=(("ssh host uptime", "network notsafe"), ("ssh host 'rm -rf /'", "deletes notsafe"),
                               ("ssh -o ProxyCommand='sh -c id' h", "executes notsafe"))))
_wrap("coproc", Wrapper(alone="none", examples=(("coproc rm -fr /", "deletes notsafe"),
                                                 ("coproc cat notes.txt", "readonly safe"))))
_wrap("shx", Wrapper(flags=E("--silent --verbose --help --version"), alone="none",
                     examples=(("shx rm -rf ~", "deletes notsafe"), ("shx ls src", "readonly safe"))))
_wrap("mosh", Wrapper(value_opts=E("-p --port --predict --family --server --client --bind-server --ssh"),
                      code_opts=E("--ssh"), rest_is_code=True, leading=1, remote=True, network=True,
                      flags=E("-a -n -4 -6 --local --no-init --no-ssh-pty --help --version"), alone="shell",
                      examples=(("mosh host -- rm -rf /srv", "deletes notsafe"), ("mosh host", "executes notsafe"))))
_wrap("autossh", Wrapper(value_opts=SSH_VALUES | E("-M"), rest_is_code=True, leading=1, remote=True, network=True,
                         exec_opts=E("-o"), alone="shell", examples=(("autossh -M 0 host uptime", "network notsafe"),)))
_wrap("xargs", Wrapper(value_opts=E("-I -n --max-args -P --max-procs -L --max-lines -s --max-chars -E --eof "
                                    "-d --delimiter -a --arg-file --process-slot-var"),
                       flags=E("-0 --null -r --no-run-if-empty -t --verbose -p --interactive -x --exit -o --open-tty "
                               "-i -e -l --replace --show-limits --help --version"),
                       read_opts=E("-a --arg-file"), alone="readonly",
                       examples=(("xargs rm -f", "deletes notsafe"), ("xargs grep -l foo", "readonly safe"),
                                 ("xargs", "readonly safe"), ("xargs -I{} sh -c 'echo {}'", "executes notsafe"),
                                 ("xargs -0 -r grep -l foo", "readonly safe"),
                                 ("xargs -a ~/.ssh/id_rsa echo", "reads notsafe"),
                                 ("xargs --frobnicate grep foo", "notsafe"))))
_wrap("parallel", Wrapper(value_opts=E("-j --jobs -S --sshlogin --results --joblog -a --arg-file --delay "
                                       "--timeout -N -n --max-args --colsep -d --delimiter -I"),
                          rest_is_code=True, alone="none",
                          examples=(("parallel gzip ::: a b", "writes notsafe"), ("parallel rm ::: a b", "deletes notsafe"),)))
_wrap("entr", Wrapper(value_opts=E("-s"), code_opts=E("-s"), flags=E("-a -c -d -n -p -r -z"), alone="none",
                      examples=(("entr make test", "safe"),)))
_wrap("hyperfine", Wrapper(value_opts=E("-w --warmup -r --runs -m --min-runs -M --max-runs -p --prepare -c "
                                        "--cleanup --export-json --export-markdown -s --setup -n --command-name"),
                           code_opts=E("-p --prepare -c --cleanup -s --setup"), rest_is_code=True, alone="none",
                           examples=(("hyperfine 'sleep 0.1'", "readonly"),)))


# -- package runners -------------------------------------------------------------------------------
# A runner's options are checked when it lists its ``flags``: an option it does not list is not understood,
# ``package_opts`` name a package it installs first (judged like an install's argument), ``load_opts`` a
# file or directory it loads (safe only as a plain path inside the project).

RUNNERS: dict[str, Runner] = {}


def _runner(keys: str, r: Runner) -> None:
    for key in keys.split(","):
        RUNNERS[key.strip()] = r


_runner("npx, pnpx, bunx, npm exec, npm x, pnpm dlx, yarn dlx, bun x",
        Runner(flags=E("-y --yes --no --no-install -q --quiet --silent -s --prefer-offline --offline --prefer-online "
                       "--ignore-existing --no-color --workspaces --include-workspace-root --verbose -d --bun -b"),
               value_opts=E("--loglevel -w --workspace"), code_opts=E("-c --call"), package_opts=E("-p --package"),
               fetches=True))
_runner("pipx run, uv tool run, uvx",
        Runner(flags=E("-q --quiet -v --verbose --offline --no-offline -n --no-cache --isolated --managed-python "
                       "--no-managed-python --no-progress --native-tls --no-python-downloads --system-site-packages "
                       "--preview -U --upgrade --refresh --reinstall --no-build-isolation --no-sources --no-config "
                       "--lock -h --help"),
               value_opts=E("--color --python-preference"), package_opts=E("--from --with --spec"),
               load_opts=E("-p --python --with-editable --with-requirements"), fetches=True))
_runner("uv run",
        Runner(flags=E("-q --quiet -v --verbose --offline --no-offline -n --no-cache --isolated --no-project "
                       "--all-packages --no-sync --locked --frozen --no-dev --only-dev --dev --all-extras --all-groups "
                       "--no-default-groups --exact --inexact --active --no-active --no-editable --script -m --module "
                       "-s --gui-script --no-env-file --managed-python --no-managed-python --no-progress "
                       "--native-tls --no-python-downloads --no-config --preview --compile-bytecode --refresh "
                       "--reinstall -U --upgrade --no-build-isolation --no-sources"),
               value_opts=E("--extra --no-extra --group --no-group --only-group --package --color --python-preference "
                            "--link-mode"),
               package_opts=E("--with"),
               load_opts=E("-p --python --env-file --with-editable --with-requirements --directory --project")))
_runner("poetry run, pdm run, hatch run, rye run, pipenv run",
        Runner(flags=E("-q --quiet -v -vv -vvv --verbose -n --no-interaction --ansi --no-ansi --no-plugins --no-cache "
                       "-s --site-packages --recreate"),
               load_opts=E("-C --directory -P --project -p")))
_runner("pnpm exec, yarn exec, yarn run-bin",
        Runner(flags=E("-r --recursive --parallel --no-bail --report-summary --silent -s --no-reporter-hide-prefix"),
               value_opts=E("-F --filter --workspace-concurrency --resume-from"), load_opts=E("-C --dir")))
_runner("bundle exec, bundler exec", Runner(flags=E("--keep-file-descriptors --verbose"), load_opts=E("--gemfile")))
_runner("conda run, mamba run, micromamba run",
        Runner(flags=E("--no-capture-output --live-stream -v --verbose -q --quiet --debug-wrapper-scripts "
                       "--dev --no-banner"),
               value_opts=E("-n --name"), load_opts=E("-p --prefix --cwd")))
_runner("dotenv", Runner(value_opts=E("-e --env -f --file")))
_runner("coverage run", Runner(value_opts=E("--source --include --omit --data-file --concurrency --context"),
                               flags=E("-a --append -p --parallel-mode -L --pylib --timid --branch -m --module "
                                       "-h --help --save-signal"),
                               load_opts=E("--rcfile"), as_python=True))  # an rcfile names plugins it imports
