//! The notation of GGS and GGF clocks (`mm:ss`, `main/increment/extension`). The clock
//! itself, and the arithmetic of a time per move, is `yomi_core::Clock`.

/// Parses a GGS clock value: `h:mm:ss`, `mm:ss` or seconds, each part possibly a decimal.
#[must_use]
pub fn parse_clock(text: &str) -> Option<f64> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let mut secs = 0.0;
    for part in text.split(':') {
        let v: f64 = part.trim().parse().ok()?;
        if !v.is_finite() || v < 0.0 {
            return None;
        }
        secs = secs * 60.0 + v;
    }
    Some(secs)
}

/// A GGF `TI` value, `main[/increment[/extension]]`: the main time and the increment in
/// seconds (an empty or missing increment is 0).
#[must_use]
pub fn parse_time_control(text: &str) -> Option<(f64, f64)> {
    let mut parts = text.split('/');
    let main = parse_clock(parts.next()?)?;
    let increment = match parts.next().map(str::trim) {
        None | Some("") => 0.0,
        Some(t) => parse_clock(t)?,
    };
    Some((main, increment))
}

/// Writes seconds as a GGS clock, `mm:ss` (with fractions when needed).
#[must_use]
pub fn format_clock(secs: f64) -> String {
    let minutes = (secs / 60.0).floor();
    let rest = secs - minutes * 60.0;
    if rest.fract() == 0.0 {
        format!("{:02}:{:02}", minutes as u64, rest as u64)
    } else {
        format!("{:02}:{rest:06.3}", minutes as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_parse_and_print() {
        assert_eq!(parse_clock("15:00"), Some(900.0));
        assert_eq!(parse_clock("1:00:30"), Some(3630.0));
        assert_eq!(parse_clock("2.5"), Some(2.5));
        assert_eq!(parse_clock("x"), None);
        assert_eq!(parse_clock("-1"), None);
        assert_eq!(parse_time_control("05:00//02:00"), Some((300.0, 0.0)));
        assert_eq!(parse_time_control("01:00/00:05/02:00"), Some((60.0, 5.0)));
        assert_eq!(format_clock(900.0), "15:00");
        assert_eq!(parse_clock(&format_clock(12.25)), Some(12.25));
        assert_eq!(format_clock(12.25), "00:12.250");
    }
}
