/// How a layer's drawing is put onto what lies under it: the blend modes of CSS
/// (`mix-blend-mode`) and Cairo. `normal` puts it over; `multiply` darkens (a hillshade over
/// colours); `screen` lightens...
public enum Compositing: String, Sendable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten
    case colorDodge = "color-dodge"
    case colorBurn = "color-burn"
    case hardLight = "hard-light"
    case softLight = "soft-light"
    case difference, exclusion, hue, saturation, color, luminosity
    /// Adds the colours (Cairo's ADD).
    case add
}
