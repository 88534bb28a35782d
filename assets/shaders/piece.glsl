// Men, instanced: one turned-disc mesh, per instance a position, a size and a colour.
#if defined VERTEX_SHADER
uniform mat4 u_view_proj;
in vec3 in_position;
in vec3 in_normal;
in vec4 in_place;   // x, y, z of the base centre; w = scale
in vec4 in_colour;  // rgb (display gamma), a = gloss
out vec3 v_pos;
out vec3 v_local;
out vec3 v_normal;
out vec4 v_colour;
void main() {
    v_local = in_position;
    v_pos = in_place.xyz + in_position * in_place.w;
    v_normal = in_normal;
    v_colour = in_colour;
    gl_Position = u_view_proj * vec4(v_pos, 1.0);
}
#elif defined FRAGMENT_SHADER
#include "lighting.glsl"
const float RIDGES = 40.0;
const float PI = 3.14159265;
const float PIECE_TOP = 0.17;  // geometry.PIECE_HEIGHT
in vec3 v_pos;
in vec3 v_local;
in vec3 v_normal;
in vec4 v_colour;
out vec4 f_color;
void main() {
    vec3 n = normalize(v_normal);
    float a = atan(v_local.z, v_local.x);
    // ridged rim: tilt the normal around the axis; fade the ridges out where they would be
    // smaller than a pixel, so they never shimmer
    float ridge_phase = a * RIDGES;
    float ridge_aa = clamp(1.5 - fwidth(ridge_phase) / PI, 0.0, 1.0);
    float rim = 1.0 - smoothstep(0.25, 0.55, abs(n.y));
    vec3 tangent = vec3(-sin(a), 0.0, cos(a));
    n = normalize(n + tangent * (0.45 * sin(ridge_phase) * rim * ridge_aa));
    vec3 albedo = to_linear(v_colour.rgb);
#if defined MOTION
    // the reduced picture drawn while the camera moves: its pixels are too coarse for the grooves
    // and turning marks below (they fade out under a few pixels), so it skips their cost
    vec3 c = shade(albedo, n, v_pos, v_colour.a, 220.0);
#else
    // the top: two turned grooves (a Gaussian dip each; the normal tilts with its slope) and fine
    // turning marks, all faded out where smaller than a pixel
    float r = length(v_local.xz);
    float top = step(0.5, n.y) * step(PIECE_TOP - 0.002, v_local.y);
    vec3 radial = vec3(cos(a), 0.0, sin(a));
    float slope = 0.0, groove = 0.0;
    for (int i = 0; i < 2; i++) {
        float c = i == 0 ? 0.315 : 0.222;
        float w = 0.016;
        float g = exp(-((r - c) * (r - c)) / (w * w));
        slope += 1.4 * (r - c) / w * g;
        groove += g;
    }
    // a groove needs a few pixels across to read; below that it would only sparkle
    float groove_aa = clamp((0.022 - fwidth(r)) / 0.008, 0.0, 1.0);
    float turn_aa = clamp(1.0 - fwidth(r * 220.0) / 1.5, 0.0, 1.0);
    n = normalize(n + top * radial * (slope * groove_aa + 0.05 * sin(r * 220.0) * turn_aa));

    vec3 c = shade(albedo, n, v_pos, v_colour.a, 220.0);  // sharp enough that a flat top glints, not hazes
    // the groove bottoms get less light: a cheap ambient occlusion
    c *= 1.0 - 0.35 * top * groove * groove_aa;
#endif
    c *= mix(0.55, 1.0, smoothstep(0.0, 0.05, v_local.y));  // and the foot
    f_color = vec4(to_display(c), 1.0);
}
#endif
