# Sourced by the .ci/ install scripts: apt_install PACKAGE installs one of Debian's packages (as root, or
# through sudo), quietly; it says so on stderr first.
apt_install() {
  echo ".ci: installing $1" >&2
  export DEBIAN_FRONTEND=noninteractive
  local sudo_=""
  [ "$(id -u)" -eq 0 ] || sudo_="sudo"
  $sudo_ apt-get update -qq >/dev/null
  $sudo_ apt-get install -y -qq --no-install-recommends "$1" >/dev/null
}
