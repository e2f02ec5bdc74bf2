//! Which syntax theme and which UI palette the viewer uses: `--theme` (checked against the
//! known names when the configuration is built, in every mode), else `BAT_THEME` as bat users
//! expect, else a default picked for the terminal's background, which is asked of the terminal
//! (terminal-colorsaurus, with a short timeout) before the viewer takes the screen.

use crate::highlight;
use std::time::Duration;

/// How long the terminal may take to say its background colour.
const QUERY_TIMEOUT: Duration = Duration::from_millis(150);

/// The theme picked and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThemeChoice {
    /// A known theme name.
    pub name: &'static str,
    /// The terminal's background is light (the UI palette follows it).
    pub light: bool,
    /// A note for the status bar (a `BAT_THEME` that names no theme).
    pub note: Option<String>,
}

/// The theme variables bat reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatEnv {
    pub theme: Option<String>,
    pub dark: Option<String>,
    pub light: Option<String>,
}

impl BatEnv {
    pub fn from_env() -> BatEnv {
        let var = |name| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        BatEnv {
            theme: var("BAT_THEME"),
            dark: var("BAT_THEME_DARK"),
            light: var("BAT_THEME_LIGHT"),
        }
    }
}

/// Picks the theme: `flag` (already checked), else `BAT_THEME` unless it is `auto`, else
/// `BAT_THEME_LIGHT`/`BAT_THEME_DARK` or our default for the background `light` says.
pub fn choose(flag: Option<&str>, bat: &BatEnv, light: Option<bool>) -> ThemeChoice {
    let light_background = light.unwrap_or(false);
    let mut note = None;
    let mut pick = |value: Option<&String>, variable: &str| {
        let value = value?;
        let known = highlight::known_theme(value);
        if known.is_none() {
            note = Some(format!(
                "{variable} '{value}' is not a known theme; using the default"
            ));
        }
        known
    };
    let by_flag = flag.and_then(highlight::known_theme);
    let by_bat = match bat.theme.as_deref() {
        Some("auto") | None => None,
        Some(_) => pick(bat.theme.as_ref(), "BAT_THEME"),
    };
    let by_background = match light_background {
        true => pick(bat.light.as_ref(), "BAT_THEME_LIGHT"),
        false => pick(bat.dark.as_ref(), "BAT_THEME_DARK"),
    };
    let default = match light_background {
        true => highlight::DEFAULT_LIGHT_THEME,
        false => highlight::DEFAULT_THEME,
    };
    let name = by_flag.or(by_bat).or(by_background).unwrap_or(default);
    ThemeChoice {
        name,
        light: light_background,
        note: note.filter(|_| by_flag.is_none()),
    }
}

/// Asks the terminal whether its background is light; `None` when it does not say in time
/// (or `COLORFGBG`, which some terminals set, answers first).
pub fn terminal_is_light() -> Option<bool> {
    if let Some(light) = colorfgbg_is_light(std::env::var("COLORFGBG").ok().as_deref()) {
        return Some(light);
    }
    let mut options = terminal_colorsaurus::QueryOptions::default();
    options.timeout = QUERY_TIMEOUT;
    match terminal_colorsaurus::theme_mode(options) {
        Ok(terminal_colorsaurus::ThemeMode::Light) => Some(true),
        Ok(terminal_colorsaurus::ThemeMode::Dark) => Some(false),
        Err(_) => None,
    }
}

/// rxvt's `COLORFGBG=fg;bg` (palette numbers): background 7 or 15 is light.
fn colorfgbg_is_light(value: Option<&str>) -> Option<bool> {
    let background: u8 = value?.rsplit(';').next()?.trim().parse().ok()?;
    Some(matches!(background, 7 | 15))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bat(theme: Option<&str>, dark: Option<&str>, light: Option<&str>) -> BatEnv {
        BatEnv {
            theme: theme.map(String::from),
            dark: dark.map(String::from),
            light: light.map(String::from),
        }
    }

    #[test]
    fn flag_then_bat_theme_then_background() {
        let none = BatEnv::default();
        assert_eq!(choose(None, &none, None).name, highlight::DEFAULT_THEME);
        assert_eq!(
            choose(None, &none, Some(true)).name,
            highlight::DEFAULT_LIGHT_THEME
        );
        assert_eq!(choose(Some("nord"), &none, Some(true)).name, "Nord");
        let env = bat(Some("gruvbox-dark"), None, Some("GitHub"));
        assert_eq!(choose(None, &env, Some(true)).name, "gruvbox-dark");
        assert_eq!(choose(Some("Nord"), &env, None).name, "Nord");
        let auto = bat(Some("auto"), Some("Dracula"), Some("GitHub"));
        assert_eq!(choose(None, &auto, Some(true)).name, "GitHub");
        assert_eq!(choose(None, &auto, Some(false)).name, "Dracula");
        assert!(choose(None, &auto, Some(true)).light);
    }

    #[test]
    fn an_unknown_bat_theme_falls_back_with_a_note() {
        let env = bat(Some("Nope"), None, None);
        let choice = choose(None, &env, None);
        assert_eq!(choice.name, highlight::DEFAULT_THEME);
        assert!(choice.note.is_some_and(|n| n.contains("BAT_THEME 'Nope'")));
        assert_eq!(choose(Some("Nord"), &env, None).note, None);
    }

    #[test]
    fn colorfgbg_says_light_or_dark() {
        assert_eq!(colorfgbg_is_light(Some("0;15")), Some(true));
        assert_eq!(colorfgbg_is_light(Some("15;default;0")), Some(false));
        assert_eq!(colorfgbg_is_light(Some("junk")), None);
        assert_eq!(colorfgbg_is_light(None), None);
    }
}
