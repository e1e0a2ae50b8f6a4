# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # The options of one instance, shared by the instance module and the instances module (a fleet declares them for
    # each of its members): one copy, so that the two cannot drift (plugins/module_utils/_instance_resource.py is the
    # argument spec they document).
    # O(interfaces) is in the interfaces fragment; each module keeps its own first line of it. A module lists this
    # fragment before gcore.platform.gcore.WAIT, so that its O(wait_timeout) (default 1200) is the one shown.
    DOCUMENTATION = r"""
options:
  flavor:
    description:
      - Flavor name, for example V(g1-standard-2-4); required to create an instance.
      - Set at create. When it differs from the instance's flavor the task fails, unless O(allow_resize=true).
    type: str
  allow_resize:
    description:
      - Resize an existing instance whose flavor differs from O(flavor) (C(changeflavor)). Resizing restarts the
        instance; the module waits until it is back in the status it had before.
    type: bool
    default: false
  volumes:
    description:
      - The instance's volumes, required to create an instance (at least one); used at create only, but for the boot
        volume's image, compared with the image the instance boots from (a difference fails the task;
        M(gcore.platform.instances) replaces such members with O(gcore.platform.instances#module:rolling)).
      - Each item is one of five variants chosen by O(volumes[].source). A field given for a source that has no
        such field, or missing where the source requires it, fails validation before any request.
      - Only the fields given are sent.
      - One volume boots, as the service requires (checked before any request) - at most one has
        O(volumes[].boot_index=0), at least one can boot (a source other than V(new-volume), without a negative
        O(volumes[].boot_index)), and no O(volumes[].volume_id) is listed twice.
    type: list
    elements: dict
    suboptions:
      source:
        description:
          - V(new-volume) a blank volume (O(volumes[].size) required); V(image) a volume from an image
            (O(volumes[].image_id) or O(volumes[].image_name) required); V(snapshot) from a snapshot
            (O(volumes[].snapshot_id) or O(volumes[].snapshot_name), and O(volumes[].size) required); V(apptemplate) from an application template
            (O(volumes[].apptemplate_id) required); V(existing-volume) an existing volume (O(volumes[].volume_id)
            required).
        type: str
        required: true
        choices: [new-volume, image, snapshot, apptemplate, existing-volume]
      size:
        description:
          - Size in GiB, V(1) to V(102400). Not for V(existing-volume).
        type: int
      name:
        description:
          - Name of the new volume (the name rule of an instance, O(gcore.platform.instance#module:name)). Not for V(existing-volume).
        type: str
      type_name:
        description:
          - Volume type. When not set the service uses V(standard), or for V(snapshot) the snapshot's type.
          - A V(snapshot) volume takes only V(standard) or V(ssd_hiiops). Not for V(existing-volume).
        type: str
        choices: [standard, ssd_hiiops, ssd_lowlatency, ssd_local, cold, ultra]
      image_id:
        description:
          - UUID of the image. Only for V(image); exclusive with O(volumes[].image_name).
        type: str
      image_name:
        description:
          - Exact name of the image, resolved with C(GET /cloud/v1/images/{project_id}/{region_id}) before any change
            to the image with that name and status C(active). No such image, or several, fails the task listing
            their ids; a deactivated image fails naming it. Resolved at each run, not only when creating. In check
            mode a name no image has at all is assumed built by an earlier task of the play, with a warning naming it.
            Only for V(image); exclusive with O(volumes[].image_id).
        type: str
      snapshot_id:
        description:
          - UUID of the snapshot. Only for V(snapshot), where it or O(volumes[].snapshot_name) is required.
        type: str
      snapshot_name:
        description:
          - Exact name of the snapshot (see M(gcore.platform.volume_snapshot)), resolved over every page of
            C(GET /cloud/v1/snapshots/{project_id}/{region_id}) before any write; no such snapshot, or several, fails
            the task listing their ids. Only for V(snapshot); exclusive with O(volumes[].snapshot_id).
        type: str
      apptemplate_id:
        description:
          - ID of the application template. Only for V(apptemplate), where it is required.
        type: str
      volume_id:
        description:
          - UUID of the existing volume. Only for V(existing-volume), where it is required.
        type: str
      boot_index:
        description:
          - V(0) is the boot volume; a positive number a secondary bootable one; a negative number not bootable.
            Not for V(new-volume).
        type: int
      attachment_tag:
        description:
          - A tag of the attachment, 1 to 60 characters without C(,) and C(/).
        type: str
      delete_on_termination:
        description:
          - Delete the volume when the instance is deleted. The service uses V(false) when not set.
        type: bool
      tags:
        description:
          - Tags of the new volume, as O(tags).
        type: dict
  security_groups:
    description:
      - Names of the security groups of the instance (applied to every interface).
      - At create they are resolved to their ids (each name must match exactly one group of the project and region)
        and sent in the create request. On an existing instance they are a set, compared with the names the instance
        shows. The missing ones are added, then the others are removed, one request each. RV(changes) says which.
      - In check mode (since 1.1.0) a name that matches no group does not fail the create it previews; the module warns
        that it assumes an earlier task creates that group.
      - When not set, the groups are not managed. An empty list removes every group.
    type: list
    elements: str
  ssh_key_name:
    description:
      - Name of an SSH key of the project (see M(gcore.platform.ssh_key)) to install at create.
      - Set at create, then compared with the instance's C(ssh_key_name); a difference fails the task
        (M(gcore.platform.instances) replaces such members with O(gcore.platform.instances#module:rolling)).
    type: str
  user_data:
    description:
      - Plain-text cloud-init (or cloudbase-init) user data; the module sends it base64-encoded. Used at create
        only, not compared (the service cannot show it back). The service ignores it on Linux when O(password) is given.
      - It often holds passwords, so it is never returned or logged, at any verbosity.
    type: str
  password:
    description:
      - Password of the default user (Linux; with O(username) a new user's) or of the Windows Admin user. Used at
        create only, never returned or logged.
    type: str
  username:
    description:
      - Name of a user to create with O(password) (Linux only), which it needs. Used at create only.
    type: str
  placement_group:
    description:
      - The placement group (server group) the instance is in, a group ID (a UUID) or the exact name of a group (see
        M(gcore.platform.placement_group)), or V("") for none. Resolved before any write; an unknown or ambiguous name
        fails and nothing is sent (in check mode, since 1.1.0, an unknown name warns that it assumes an earlier task
        creates the group, and the create is previewed).
      - At create it is sent as C(servergroup_id). The instance record does not show its group, so on an existing
        instance its membership is read from the groups' C(instances) (one listing of
        C(GET /cloud/v1/servergroups/{project_id}/{region_id})); a different group (or V("")) is reached with
        C(POST .../remove_from_servergroup), then C(POST .../put_into_servergroup), each waited for as a task.
      - Left out, the instance's group is not managed.
    type: str
    aliases: [servergroup_id]
  delete_floating_ips:
    description:
      - With O(state=absent), delete the floating IPs assigned to the instance with it. Without it the service
        unassigns them and they stay (a warning names them, and M(gcore.platform.instance) returns them in
        RV(gcore.platform.instance#module:left)).
      - Only the floating IPs assigned when the run read the instance (one listing of
        C(GET /cloud/v1/floatingips/{project_id}/{region_id}), before any write) are deleted, named by id in the
        C(floatings) query; one another task assigns meanwhile stays.
    type: bool
    default: false
  delete_volumes:
    description:
      - With O(state=absent), delete every volume of the instance with it (volumes created with
        O(volumes[].delete_on_termination=true) are deleted anyway). Without it the other volumes stay (a warning names
        them, and M(gcore.platform.instance) returns them in RV(gcore.platform.instance#module:left)).
      - Only the volumes the instance had when the run read it are deleted, named by id in the C(volumes) query; a data
        volume another task attaches meanwhile stays.
    type: bool
    default: false
  wait_timeout:
    description:
      - How many seconds to wait for the tasks and for the instance to be ready when O(wait=true), at least V(1).
      - An instance still building after this time fails the task naming its id and status; a later run finds it
        by its name instead of creating another.
    type: int
    default: 1200
"""
