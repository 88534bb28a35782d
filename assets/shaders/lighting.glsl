// Shared lighting: one warm key light, a cool fill, a sky/floor ambient and a fake room reflection.
// Included by the lit shaders; colours are linear, converted to display gamma at the very end.
uniform vec3 u_light_dir;  // unit vector towards the key light
uniform vec3 u_eye;        // camera position, world units

vec3 to_linear(vec3 c) { return pow(c, vec3(2.2)); }
vec3 to_display(vec3 c) {
    c = c / (1.0 + 0.12 * c);  // soft shoulder so highlights don't clip harshly
    return pow(clamp(c, 0.0, 1.0), vec3(1.0 / 2.2));
}

vec3 ambient(vec3 n) {
    return mix(vec3(0.10, 0.085, 0.07), vec3(0.30, 0.31, 0.34), n.y * 0.5 + 0.5);
}

// The light a surface facing `n` receives from the key light, the fill and the ambient.
vec3 diffuse_light(vec3 n) {
    float ndl = max(dot(n, u_light_dir), 0.0);
    float fill = max(dot(n, normalize(vec3(0.6, 0.5, -0.4))), 0.0);
    return ambient(n) + ndl * vec3(1.05, 0.97, 0.86) * 1.35 + fill * vec3(0.20, 0.22, 0.26);
}

// A dielectric (wood, lacquer): diffuse plus a white highlight of strength `spec` and sharpness `shine`.
vec3 shade(vec3 albedo, vec3 n, vec3 p, float spec, float shine) {
    vec3 v = normalize(u_eye - p);
    vec3 l = u_light_dir;
    vec3 h = normalize(l + v);
    float ndl = max(dot(n, l), 0.0);
    float fres = pow(1.0 - max(dot(n, v), 0.0), 5.0);
    vec3 r = reflect(-v, n);
    vec3 room = mix(vec3(0.05, 0.045, 0.04), vec3(0.45, 0.45, 0.48), smoothstep(-0.2, 0.6, r.y));
    vec3 c = albedo * diffuse_light(n);
    c += spec * pow(max(dot(n, h), 0.0), shine) * vec3(1.0, 0.96, 0.9) * ndl * 2.0;
    c += spec * (0.04 + 0.5 * fres) * room;
    return c;
}

// A metal (the gold rings): the highlight and the reflection take the metal's colour.
vec3 shade_metal(vec3 albedo, vec3 n, vec3 p, float shine) {
    vec3 v = normalize(u_eye - p);
    vec3 l = u_light_dir;
    vec3 h = normalize(l + v);
    float ndl = max(dot(n, l), 0.0);
    vec3 r = reflect(-v, n);
    vec3 room = mix(vec3(0.10, 0.08, 0.05), vec3(0.95, 0.92, 0.85), smoothstep(-0.3, 0.7, r.y));
    vec3 c = albedo * (0.25 * ambient(n) + 0.45 * ndl + 0.75 * room);
    c += albedo * pow(max(dot(n, h), 0.0), shine) * 3.0 * ndl;
    return c;
}
