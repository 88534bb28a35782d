// Gold rings, instanced: a torus built in the shader from (angle around, angle of the tube) and
// per-instance radii, so one mesh serves the king's crown ring and the selection ring.
#if defined VERTEX_SHADER
uniform mat4 u_view_proj;
in vec2 in_angles;
in vec4 in_ring;    // centre x, y, z; w = major radius
in vec4 in_tube;    // x = tube radius, y = vertical squash, zw unused
in vec4 in_colour;  // rgb (display gamma), a unused
out vec3 v_pos;
out vec3 v_normal;
out vec3 v_colour;
void main() {
    float u = in_angles.x, v = in_angles.y;
    vec3 around = vec3(cos(u), 0.0, sin(u));
    vec3 n = around * cos(v) + vec3(0.0, sin(v), 0.0);
    v_pos = in_ring.xyz + around * (in_ring.w + in_tube.x * cos(v)) + vec3(0.0, in_tube.x * in_tube.y * sin(v), 0.0);
    v_normal = normalize(vec3(n.x, n.y / max(in_tube.y, 0.05), n.z));
    v_colour = in_colour.rgb;
    gl_Position = u_view_proj * vec4(v_pos, 1.0);
}
#elif defined FRAGMENT_SHADER
#include "lighting.glsl"
in vec3 v_pos;
in vec3 v_normal;
in vec3 v_colour;
out vec4 f_color;
void main() {
    vec3 c = shade_metal(to_linear(v_colour), normalize(v_normal), v_pos, 40.0);
    f_color = vec4(to_display(c), 1.0);
}
#endif
