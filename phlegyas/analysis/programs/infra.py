"""Infrastructure: containers, clusters, infrastructure as code, cloud CLIs, software installers (system
and language-wide: apt, brew, gem, rustup …) and database clients."""
from __future__ import annotations

from phlegyas.analysis.programs.spec import LINT_FORMAT, NET_READ, PKG_INSTALL, READ_ONLY, E, Spec, add, mut, ro, subs

INFRA_TOOLS: dict[str, Spec] = {}
"""Containers, cloud, installers and databases, in the order of the program table."""


def _add(names: str, spec: Spec) -> None:
    add(INFRA_TOOLS, names, spec)


_add("docker podman nerdctl", Spec(
    operands="none", handler="docker",
    value_opts=E("-H --host -c --context -l --log-level --tlscacert --tlscert --tlskey"),
    load_flags=E("--config"),  # a client configuration names credential helpers: programs docker runs
    flags=E("-D --debug --tls --tlsverify -v --version --help"),
    subcommands=subs({}, (
        "ps images version info inspect logs history top port diff stats search events", ro(
            operands="none", network=False, handler="docker_read",
            value_opts=E("-f --filter --format -n --last --since --until --tail --type --limit"),
            flags=E("-a --all -q --quiet --no-trunc -s --size --digests -l --latest --timestamps -t -f --follow "
                    "--details -H --human --no-stream --no-color --help --tree"))),
        ("image container network volume system context compose buildx builder plugin secret config "
         "manifest node service stack swarm trust",
         Spec(operands="none", handler="docker_group", does="changes containers or images",
              value_opts=E("-f --filter --format -p --project-name --project-directory --env-file --profile"))),
        ("", ro(operands="none")),
        ("*", mut("changes containers or images", operands="none", network=True))),
    examples=(("docker ps -a", "readonly safe"), ("docker logs -f web", "readonly safe"),
              ("docker run --rm -v /:/mnt alpine chroot /mnt sh", "notsafe"), ("docker compose ps", "readonly safe"),
              ("docker compose up -d", "mutates notsafe"), ("docker system prune -a", "mutates notsafe"),
              ("docker image ls", "readonly safe"), ("docker exec -it web sh", "notsafe"),
              ("docker --config /tmp/d ps", "notsafe"), ("webpack -c /tmp/x.js", "notsafe"))))
_add("docker-compose", Spec(readonly=True, category=READ_ONLY, operands="none", handler="docker_compose_top",
                           value_opts=E("-f --file -p --project-name --project-directory --env-file --profile"),
                           flags=E("-a --all -q --quiet --services -f --follow -t --timestamps --no-color "
                                   "--no-log-prefix --help -v --version"),
                           examples=(("docker-compose ps", "readonly safe"), ("docker-compose down", "notsafe"))))
_KUBE_GLOBALS = E("-n --namespace --context --cluster --kubeconfig -s --server --user --token --as --as-group "
                  "--request-timeout --certificate-authority --client-certificate --client-key -v")
"""kubectl's global options, accepted before and after the subcommand."""
_add("kubectl oc k3s-kubectl microk8s-kubectl", Spec(
    operands="none", network=True,
    value_opts=_KUBE_GLOBALS,
    flags=E("--insecure-skip-tls-verify --help -h"),
    subcommands=subs({}, ("get describe logs explain version api-resources api-versions cluster-info top "
                          "diff events wait", ro(category=NET_READ, operands="none", network=True, handler="kubectl_read",
                                                 value_opts=_KUBE_GLOBALS | E("-o --output -l --selector -c --container --tail "
                                                              "--since -f --filename --field-selector --sort-by "
                                                              "--template --for --timeout --since-time -L "
                                                              "--label-columns --chunk-size --limit-bytes "
                                                              "--max-log-requests --show-kind --subresource"),
                                                 flags=E("-A --all-namespaces -w --watch --watch-only --show-labels "
                                                         "--no-headers -p --previous --timestamps --prefix "
                                                         "--all-containers --ignore-not-found --recursive -R "
                                                         "--show-events --containers --short --client --help -h "
                                                         "--use-protocol-buffers --sort-by-cpu --sum -i --ignore-errors "
                                                         "--namespaced --cached --no-headers"))),
                     ("config", Spec(operands="none", handler="kubectl_config", does="changes kubectl configuration")),
                     ("auth", ro(category=NET_READ, operands="none", network=True, value_opts=_KUBE_GLOBALS,
                                 flags=E("-A --all-namespaces --list -q --quiet --no-headers -h --help"))),
                     ("", ro(operands="none")),
                     ("*", mut("changes cluster state", operands="none", network=True,
                               value_opts=E("-f --filename -o --output -l --selector -c --container -i -t "
                                            "--image --replicas --type")))),
    examples=(("kubectl get pods -n prod", "readonly safe"), ("kubectl delete pod x", "mutates notsafe"),
              ("kubectl exec -it web -- sh", "notsafe"), ("kubectl config view", "readonly safe"),
              ("kubectl config use-context prod", "mutates notsafe"), ("kubectl get secret db -o yaml", "notsafe"))))
_HELM_GLOBALS = E("-n --namespace --kube-context --kubeconfig --kube-apiserver --kube-token --registry-config "
                  "--repository-cache --repository-config --burst-limit")
_add("helm", Spec(operands="none", network=True, value_opts=_HELM_GLOBALS, flags=E("--debug --help -h"),
                  subcommands=subs({}, ("list ls status get history show template lint search version env verify",
                                        ro(category=NET_READ, operands="none", network=True,
                                           value_opts=_HELM_GLOBALS | E("-f --values --set -o --output --version --revision "
                                                        "--max --offset --filter --set-string --kube-version"),
                                           flags=E("-A --all-namespaces -a --all --deployed --failed --pending "
                                                   "--uninstalled --superseded -q --short --date -r --reverse "
                                                   "--debug --help -h --devel --regexp --show-only --strict "
                                                   "--with-subcharts"))),
                                   ("", ro(operands="none")),
                                   ("*", mut("changes cluster releases", operands="none", network=True))),
                  examples=(("helm list -A", "readonly safe"), ("helm uninstall web", "mutates notsafe"))))
_add("terraform tofu terragrunt", Spec(
    operands="none", value_opts=E("-chdir"), whole=E("-chdir"),
    subcommands=subs({}, ("validate show output version providers graph console-version get metadata",
                          ro(operands="none", whole=E("-json -no-color -raw -state"), handler="tf_output",
                             flags=E("-json -no-color -raw -help -h -v -version"))),
                     ("plan", ro(category=NET_READ, operands="none", network=True,
                                 value_opts=E("-var -var-file -target -out -state -parallelism -lock-timeout -lock "
                                              "-input -refresh"),
                                 whole=E("-var -var-file -target -out -state -parallelism -lock-timeout -destroy "
                                         "-refresh-only -input -lock -detailed-exitcode -no-color -compact-warnings "
                                         "-json -help -refresh"),
                                 flags=E("-destroy -refresh-only -detailed-exitcode -no-color -compact-warnings "
                                         "-json -help"),
                                 write_flags=E("-out"))),
                     ("fmt", Spec(category=LINT_FORMAT, operands="read", inplace=True,
                                  readonly_flags=E("-check -diff -list=true"), whole=E("-check -diff -recursive"),
                                  flags=E("-check -diff -recursive -no-color -write=false -list=false"),
                                  default_operand=".")),
                     ("init get", Spec(category=PKG_INSTALL, operands="none", network=True, does="downloads providers",
                                       whole=E("-upgrade -backend-config -reconfigure -migrate-state -backend -input "
                                               "-get -lock -no-color -json -plugin-dir -help"),
                                       flags=E("-upgrade -reconfigure -migrate-state -input=false -no-color "
                                               "-backend=false -get=false -json -help"),
                                       value_opts=E("-backend-config -backend -input -get -lock"),
                                       load_flags=E("-plugin-dir"))),
                     ("state workspace", Spec(operands="none", handler="tf_state", does="changes state")),
                     ("", ro(operands="none")),
                     ("*", mut("changes infrastructure", operands="none", network=True))),
    examples=(("terraform plan", "readonly safe"), ("terraform validate", "readonly safe"),
              ("terraform apply -auto-approve", "mutates notsafe"), ("terraform state list", "readonly safe"),
              ("terraform state rm x", "mutates notsafe"),
              ("terraform output", "readonly safe"), ("terraform output -json", "readonly notsafe"),
              ("terraform state pull", "readonly notsafe"), ("terraform show -json", "readonly notsafe"))))
_add("aws gcloud az gsutil doctl flyctl heroku vercel netlify wrangler firebase",
     Spec(operands="none", network=True, handler="cloud", does="changes cloud resources",
          value_opts=E("--region --profile --output --query --endpoint-url --project --format --filter "
                       "--subscription -g --resource-group --account --zone --cli-input-json --cli-input-yaml"),
          examples=(("aws s3 ls", "readonly safe"), ("aws ec2 describe-instances", "readonly safe"),
                    ("aws s3 cp a s3://b/", "notsafe"), ("aws secretsmanager get-secret-value --secret-id x", "notsafe"),
                    ("gcloud compute instances list", "readonly safe"), ("aws s3 rm s3://b --recursive", "notsafe"))))
_add("apt apt-get aptitude dnf yum zypper pacman apk brew port snap flatpak pkg opkg emerge xbps-install "
     "nix-env dpkg rpm gem cpan cpanm pecl composer bundle bundler cabal stack opam rustup sdk asdf mise "
     "nvm fnm volta pyenv rbenv",
     Spec(operands="none", handler="system_pkg", does="installs or removes software", network=True,
          value_opts=E("-o --option -c --config-file -t --target-release -q --root --installroot --releasever "
                       "--enablerepo --disablerepo"),
          exec_flags=E("-o --option --eval -E --define -D --macros --pipe --rcfile --predefine --load"),
          examples=(("apt list --installed", "readonly safe"), ("apt-get install -y curl", "mutates notsafe"),
                    ("apt-get -o APT::Update::Pre-Invoke::=sh update", "executes notsafe"),
                    ("brew info jq", "readonly safe"), ("dpkg -l", "readonly safe"), ("dpkg -i x.deb", "notsafe"),
                    ("bundle install", "safe"), ("bundle exec rspec", "safe"), ("composer install", "safe"),
                    ("gem install x", "notsafe"), ("rpm -qa", "readonly safe"))))
_add("apt-cache dpkg-query apt-file rpmquery rpmverify rpmdb",
     ro(operands="none", value_opts=E("-f --showformat -W -c -o"),
        flags=E("-l --list -s --status -L --listfiles -S --search -p --print-avail -q -a -i --all --installed "
                "--names-only --full -n --help --version"),
        exec_flags=E("--eval -E --define -D --macros --pipe --rcfile --predefine --load -o --option -c --config-file"),
        examples=(("apt-cache policy curl", "readonly safe"),
                  ("rpmquery --eval '%(/bin/sh 1>&2)'", "executes notsafe"))))

# Databases and messaging: their commands can change data.
_add("psql mysql mariadb sqlite3 sqlite mongo mongosh redis-cli cqlsh clickhouse-client duckdb influx sqlcmd "
     "pg_dump pg_restore mysqldump createdb dropdb",
     Spec(operands="none", network=True, does="runs database commands", handler="database",
          value_opts=E("-h --host -p --port -U --username -u --user -d --dbname -D --database -c --command -e "
                       "--execute -f --file -P --password -o --output -F --format -t --table -n --schema"),
          examples=(("psql -c 'select 1'", "notsafe"), ("sqlite3 db.sqlite .tables", "notsafe"))))
_add("terraform-docs", Spec(category=LINT_FORMAT, operands="read", does="writes a module's documentation",
                            flags=E("-h --help -v --version --recursive --hide-empty --indent --sort --sort-by "
                                    "--output-check --lockfile --show --hide"),
                            value_opts=E("--output-mode --output-template --recursive-path --sort-by --show --hide"),
                            write_flags=E("--output-file"), load_flags=E("-c --config"),
                            subcommands=None,
                            examples=(("terraform-docs markdown table modules/vpc", "safe"),
                                      ("terraform-docs markdown table --output-file README.md modules/vpc", "safe"),
                                      ("terraform-docs -c /tmp/x.yml markdown modules/vpc", "notsafe"))))
